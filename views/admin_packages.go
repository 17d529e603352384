package views

// PackagesCard lists what the Code Interpreter's Python has installed: the
// local engine's, read from its Python at start; on hosted Foundry the set
// is Microsoft's, and not listed.
type PackagesCard struct {
	// Listed is set when Packages is the real list.
	Listed bool
	// Local is set on the local engine (where an unlisted set means the
	// list could not be read).
	Local    bool
	Python   string
	Packages []PackageRow
}

// PackageRow is one installed package.
type PackageRow struct {
	Name, Version string
	// Modules are the top-level modules it provides, the names code
	// imports it by (PIL for Pillow).
	Modules string
}
