package analyst

import "testing"

// voyageCSV holds survival as the text True and False, as DataBench's Titanic table does:
// class 1 saved 2 of 2, class 2 1 of 2, class 3 1 of 4; women 3 of 4.
const voyageCSV = `Survived,Pclass,Sex
True,1,female
True,1,male
True,2,female
False,2,male
True,3,female
False,3,female
False,3,male
False,3,male
`

// TestRatesOfYesNoColumns holds "survival rate" as the share of rows where Survived is true
// (DataBench 002/13), never the survivors alone.
func TestRatesOfYesNoColumns(t *testing.T) {
	askEach(t, "voyage.csv", voyageCSV, []replyCase{
		{q: "Name the top 3 passenger classes by survival rate.", want: "**1** (1), **2** (0.5), **3** (0.25)", anywhere: true},
		{q: "What is the survival rate of female passengers?", want: "is **0.75**", anywhere: true},
		{q: "Which passenger class has the highest survival rate?", want: "is **1** (1)", anywhere: true},
	})
}
