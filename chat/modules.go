package chat

import (
	"context"
	"regexp"
	"slices"
	"strings"
)

// Packages is what the Code Interpreter's Python has installed, as far as
// the app knows: the local engine's list is read from its Python at start;
// the hosted Code Interpreter's set is fixed by Microsoft and not listed.
type Packages struct {
	// Listed is set when the list below is real.
	Listed bool
	// Python is the interpreter's version ("3.11.2").
	Python string
	// Modules are the importable top-level modules, sorted.
	Modules []string
	// Distributions are the installed packages, by name.
	Distributions []Distribution
}

// Distribution is one installed package and the top-level modules it
// provides, whose names may differ from its own (Pillow provides PIL).
type Distribution struct {
	Name, Version string
	Modules       []string
}

// ModuleNote is what the app, not the model, says of a module a cell
// failed to import ("Python package not available": the Code Interpreter
// has a fixed set of packages).
type ModuleNote struct {
	// Module is the top-level module the code imported: "polars".
	Module string `json:"module"`
	// Listed says whether the app knows what is installed; on the hosted
	// service it does not, and Alternative is what such a service usually
	// has rather than what was checked.
	Listed bool `json:"listed,omitzero"`
	// ImportAs is set when the package is installed after all, under
	// another import name: `import pillow` fails, `import PIL` works.
	// Package is the installed package's name ("Pillow").
	ImportAs string `json:"import_as,omitzero"`
	Package  string `json:"package,omitzero"`
	// Alternative is the nearest installed module that does the job
	// ("pandas"), and Use what of it to use ("pandas.DataFrame").
	Alternative string `json:"alternative,omitzero"`
	Use         string `json:"use,omitzero"`
}

// alternative is a module to use instead of a missing one, and what of it.
type alternative struct{ module, use string }

// alternatives are, for packages the Code Interpreter lacks, the ones
// nearest in purpose that it has, in order of preference. The first one
// installed is offered.
var alternatives = map[string][]alternative{}

func init() {
	add := func(missing []string, alts ...alternative) {
		for _, m := range missing {
			alternatives[m] = alts
		}
	}
	// DataFrame libraries: pandas does the same work in memory, and the
	// data of a sandbox fits in memory.
	add([]string{"polars", "modin", "dask", "vaex", "pyspark", "cudf", "duckdb"}, alternative{"pandas", "pandas.DataFrame"})
	// Interactive charts: matplotlib draws the same charts as PNG files,
	// which the gallery keeps; seaborn has the statistical ones.
	add([]string{"plotly", "bokeh", "altair", "pygal", "holoviews"},
		alternative{"matplotlib", "matplotlib.pyplot"}, alternative{"seaborn", "seaborn"})
	// Gradient boosting: scikit-learn has its own, histogram-based as
	// LightGBM's is.
	add([]string{"xgboost", "lightgbm", "catboost"},
		alternative{"sklearn", "sklearn.ensemble.HistGradientBoostingClassifier or HistGradientBoostingRegressor"})
	// Deep learning: no framework is installed; a small neural network
	// fits in scikit-learn, which is what a sandbox's CPU can train.
	add([]string{"tensorflow", "torch", "keras", "jax", "transformers"},
		alternative{"sklearn", "sklearn.neural_network.MLPClassifier or MLPRegressor"})
	// HTML and XML parsing: lxml parses both, and bs4 itself uses it.
	add([]string{"bs4", "html5lib"}, alternative{"lxml", "lxml.html"})
	// Forecasting: statsmodels has ARIMA and exponential smoothing.
	add([]string{"prophet", "pmdarima", "sktime", "darts"},
		alternative{"statsmodels", "statsmodels.tsa (ARIMA, ExponentialSmoothing)"})
	// Statistical tests: scipy.stats has them, statsmodels the models.
	add([]string{"pingouin", "researchpy"}, alternative{"scipy", "scipy.stats"}, alternative{"statsmodels", "statsmodels.api"})
	// Writing Excel files: openpyxl writes .xlsx, and pandas uses it.
	add([]string{"xlsxwriter"}, alternative{"openpyxl", `DataFrame.to_excel(engine="openpyxl")`})
	// Image processing: Pillow opens, converts and resizes images.
	add([]string{"cv2", "skimage", "imageio"}, alternative{"PIL", "PIL.Image"})
	// Writing PDF: matplotlib writes pages of charts and text as PDF.
	add([]string{"reportlab", "fpdf", "weasyprint"}, alternative{"matplotlib", "matplotlib.backends.backend_pdf.PdfPages"})
	// Reading Parquet needs pyarrow or fastparquet; pandas reads CSV and Excel.
	add([]string{"pyarrow", "fastparquet"}, alternative{"pandas", "pandas.read_csv or pandas.read_excel (ask for the data as CSV)"})
}

// missingModule is the last line of the traceback of an import that found
// no module: "ModuleNotFoundError: No module named 'polars.io'".
var missingModule = regexp.MustCompile(`^(?:ModuleNotFoundError|ImportError): No module named '?([\w.]+)'?`)

// NoteMissingModule decides what to tell of a cell whose error is the
// traceback's last line errorLine: nil unless it failed to import a
// module; otherwise the module, whether it is installed under another
// import name, and the nearest installed alternative.
func NoteMissingModule(errorLine string, installed Packages) *ModuleNote {
	m := missingModule.FindStringSubmatch(errorLine)
	if m == nil {
		return nil
	}
	top, _, _ := strings.Cut(m[1], ".")
	n := &ModuleNote{Module: top, Listed: installed.Listed}
	if installed.Listed {
		n.Package, n.ImportAs = installedAs(top, installed.Distributions)
	}
	if n.ImportAs == "" {
		n.Alternative, n.Use = nearest(top, installed)
	}
	return n
}

// installedAs finds the installed package named as the module the code
// imported, when it provides a module of another name: the code used the
// package's name (pillow, beautifulsoup4, scikit_learn) for its module's.
func installedAs(module string, dists []Distribution) (pkg, importAs string) {
	for _, d := range dists {
		if sameName(d.Name, module) && len(d.Modules) > 0 && !slices.Contains(d.Modules, module) {
			return d.Name, d.Modules[0]
		}
	}
	return "", ""
}

// sameName compares package names as pip does (PEP 503): case, "-", "_"
// and "." do not count.
func sameName(a, b string) bool {
	norm := strings.NewReplacer("-", "", "_", "", ".", "")
	return strings.EqualFold(norm.Replace(a), norm.Replace(b))
}

// nearest is the first alternative to module that is installed; when the
// list is unknown, the first one: each table entry's first is of the
// common data stack (pandas, matplotlib, scikit-learn ...) that every
// Code Interpreter has.
func nearest(module string, installed Packages) (string, string) {
	for _, a := range alternatives[strings.ToLower(module)] {
		if !installed.Listed || slices.Contains(installed.Modules, a.module) {
			return a.module, a.use
		}
	}
	return "", ""
}

// noteModule tells, once, of a cell that failed to import a module what
// the app knows of it (NoteMissingModule). It runs on the cell's output
// and on its end, whichever brings the traceback.
func (r *runner) noteModule(ctx context.Context, cellID string) {
	for _, c := range r.answer.Cells {
		if c.ID != cellID || c.Module != nil {
			continue
		}
		if n := NoteMissingModule(c.ErrorLine(), r.s.Packages()); n != nil {
			r.emit(ctx, Event{Type: EventModuleNote, CellID: cellID, Module: n})
		}
	}
}
