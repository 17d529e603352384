# The two set-up commands are `make run` and `make test`; each installs what
# it needs first. Go itself is expected on PATH (Go 1.26).

GO       ?= go
BIN      := bin
ADDR     ?= :8080
DATA_DIR ?= ./data

# Debian packages of the local engine: the sandbox and its Python libraries.
RUN_DEBS  := bubblewrap util-linux python3 python3-pandas python3-numpy python3-matplotlib \
             python3-seaborn python3-scipy python3-openpyxl python3-sklearn python3-statsmodels \
             python3-docx python3-pypdf python3-xlrd \
             fonts-noto-cjk fonts-dejavu-core
# Extra packages for the tests: the browser, Jupyter for the sandbox's
# comparison benchmark, nbformat and nbclient to validate and run exported
# notebooks, and PostgreSQL 15, of which the tests start throwaway clusters
# (internal/pgtest).
TEST_DEBS := chromium python3-ipykernel python3-jupyter-client python3-nbformat python3-nbclient postgresql

.PHONY: all deps deps-run run build test bench lint templ code-css clean

all: build

deps-run:
	@./scripts/deps.sh $(RUN_DEBS)

# Azurite (npm, pinned) for the tests of the Azure blob store, into .tools/.
deps:
	@./scripts/deps.sh $(RUN_DEBS) $(TEST_DEBS)
	@./scripts/azurite.sh

build:
	$(GO) build -o $(BIN)/web ./cmd/web
	$(GO) build -o $(BIN)/foundry-emulator ./cmd/foundry-emulator

run: deps-run build
	ADDR=$(ADDR) DATA_DIR=$(DATA_DIR) ./$(BIN)/web

# Every test, browser tests included; lint first so stale generated code fails.
test: deps lint
	$(GO) test -count=1 -timeout 45m ./...

bench: deps
	$(GO) test -run '^$$' -bench . -benchmem -count 5 -timeout 30m ./...

# gofmt, go vet, and generated templ code that matches its sources.
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	@tmp=$$(mktemp -d) && cp views/*.templ views/*_templ.go $$tmp/ && \
	  $(GO) tool templ generate -path $$tmp >/dev/null 2>&1 && \
	  for f in views/*_templ.go; do cmp -s $$f $$tmp/$$(basename $$f) || { echo "$$f is stale: run 'make templ'"; rm -rf $$tmp; exit 1; }; done; \
	  rm -rf $$tmp

templ:
	$(GO) tool templ generate -path views

# The stylesheet of highlighted code, generated from the markdown package.
code-css:
	printf 'package main\nimport ("fmt"; "github.com/analyst-workbench/workbench/markdown")\nfunc main() { fmt.Print(markdown.CodeCSS()) }\n' > /tmp/workbench-code-css.go
	$(GO) run /tmp/workbench-code-css.go > static/css/code.css

clean:
	rm -rf $(BIN)
