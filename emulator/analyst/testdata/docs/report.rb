require 'csv'
require_relative 'helpers'

class Report
  def initialize(rows)
    @rows = rows
  end

  def total
    @rows.sum
  end
end
