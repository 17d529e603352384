package chat

import "github.com/analyst-workbench/workbench/cellext"

// ShownCode is a cell's code as the page shows it: in code the built-in
// analyst wrote, without the lines the engine says report to it (Hidden:
// its _emit(...) statements, and a block they alone filled). The loader
// cell, and code the user or a model wrote (whatever it calls), are shown
// as they ran; an export keeps the code whole, so that it runs the same.
func (c *Cell) ShownCode() string {
	if c.Loader || !c.Analyst {
		return c.Code
	}
	return cellext.Without(c.Code, c.Hidden)
}
