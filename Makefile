# Lexflow's two commands: `make dev` runs the product, `make test` checks it.
# Everything they need installs from the Go module proxy into ./bin, except the PDF
# checkers (poppler-utils) and WeasyPrint for `make bench-pdf`, which come from apt.

TEMPORAL_CLI_VERSION  := v1.5.1
TEMPORAL_UI_VERSION   := v2.42.1
STATICCHECK_VERSION   := v0.8.2
WORKFLOWCHECK_VERSION := v0.6.0
STRIPE_MOCK_VERSION   := v0.203.0
# TEMPORAL_SERVER_VERSION is the Temporal server (and its SQL tool and PostgreSQL
# schema) of the cluster tests: the one the pinned CLI's dev server embeds.
TEMPORAL_SERVER_VERSION := v1.29.1

BIN := $(CURDIR)/bin
export GOBIN := $(BIN)

.PHONY: abuse build dev test versions test-firestore cluster-test postgres browser-test lint fuzz npm chromium histories bench eval eval-agent record-offline bench-stream bench-load bench-chaos bench-pdf bench-research pdftools ocr tools clean corpus-archive

# apt installs Debian packages, through sudo unless we are root.
APT := $(if $(filter 0,$(shell id -u)),,sudo) env DEBIAN_FRONTEND=noninteractive apt-get

# GO_BUILD builds the one static lexflow binary; the Dockerfile runs the same command.
GO_BUILD := CGO_ENABLED=0 go build -trimpath

## build: the static lexflow binary into ./bin, as the Docker image holds it
build:
	$(GO_BUILD) -o bin/lexflow ./cmd/lexflow

## dev: start the Temporal dev server (UI on :8233), FerretDB (LEXFLOW_STORE=firestore: the Firestore emulator), the worker and the API on :8080
dev: bin/temporal bin/temporal-ui $(if $(filter firestore,$(LEXFLOW_STORE)),npm)
	go run ./cmd/lexflow dev

# TEST_CORPUS is the legal corpus the test packages share (package internal/testcorpus),
# built once by a plain binary in about 20 s: under the race detector every package
# that needs one would spend over three minutes building its own.
TEST_CORPUS := $(CURDIR)/data/test/corpus.db

# E2E_PARALLEL is how many tests of e2e/api and e2e/story (the tests that call
# t.Parallel) run at once: they mostly wait on timers and I/O, and go test's default
# is GOMAXPROCS, two on a two-core machine.
E2E_PARALLEL := 8

# The eval package measures the search's rankings one question after another: under the
# race detector its ranking and regular expressions ran 35 times slower (380 s against
# 11 s) with nothing concurrent to check, so it runs without it; the corpus package it
# measures runs with it.

## test: vet, lint, and run every test (unit, integration and end-to-end) with the race detector, but for the eval package's measurements
test: bin/temporal bin/temporal-ui bin/stripe-mock bin/temporal-server pdftools ocr npm chromium postgres lint
	LEXFLOW_CORPUS_DB=$(TEST_CORPUS) go run ./cmd/lexflow corpus load
	LEXFLOW_TEST_CORPUS=$(TEST_CORPUS) go test -race -timeout 20m -parallel $(E2E_PARALLEL) $$(go list ./... | grep -v '/eval$$')
	LEXFLOW_TEST_CORPUS=$(TEST_CORPUS) go test -timeout 5m ./eval
	$(MAKE) --no-print-directory fuzz FUZZTIME=20000x

## test-firestore: the end-to-end API tests and case stories with the Firestore emulator as the store
test-firestore: bin/temporal bin/temporal-ui bin/stripe-mock pdftools npm
	LEXFLOW_CORPUS_DB=$(TEST_CORPUS) go run ./cmd/lexflow corpus load
	LEXFLOW_STORE=firestore LEXFLOW_TEST_CORPUS=$(TEST_CORPUS) go test -race -count=1 -timeout 20m ./e2e/api/ ./e2e/story/

## cluster-test: a case's story on a Temporal server on PostgreSQL, locked with mutual TLS and its JWT authorizer, with two workers and two APIs, one of each killed mid-story, and callers without a certificate or a permission refused (make test runs all but the kills)
cluster-test: bin/temporal-server postgres npm
	LEXFLOW_CORPUS_DB=$(TEST_CORPUS) go run ./cmd/lexflow corpus load
	LEXFLOW_CLUSTER_FAILOVER=1 LEXFLOW_TEST_CORPUS=$(TEST_CORPUS) go test -count=1 -v -timeout 10m -run '^TestCluster' ./e2e/cluster/

## abuse: the attack suite alone, verbose: every TestAttack* test (issue 36's findings; make test runs them too), with the figures its load checks log (twice the input, at most three times the time)
abuse: bin/temporal bin/temporal-ui bin/stripe-mock pdftools ocr npm
	LEXFLOW_CORPUS_DB=$(TEST_CORPUS) go run ./cmd/lexflow corpus load
	LEXFLOW_TEST_CORPUS=$(TEST_CORPUS) go test -count=1 -v -timeout 20m -parallel $(E2E_PARALLEL) -run 'TestAttack' ./...

# FUZZ_TARGETS are package:target pairs; `go test -fuzz` runs one target at a time.
# FUZZTIME counts inputs (Nx) rather than time: on Go 1.26 a duration can end a clean
# run with a spurious "context deadline exceeded" (go.dev/issue/75804, fixed in 1.27).
FUZZ_TARGETS := ./api:FuzzRequestDecoders ./internal/payments:FuzzVerify
FUZZTIME ?= 2000000x

## fuzz: run every fuzz target for FUZZTIME inputs each (2,000,000; make test runs 20,000)
fuzz:
	@for t in $(FUZZ_TARGETS); do \
		echo "go test -run '^$$' -fuzz '^$${t#*:}$$' -fuzztime $(FUZZTIME) $${t%%:*}"; \
		go test -run '^$$' -fuzz "^$${t#*:}$$" -fuzztime $(FUZZTIME) "$${t%%:*}" || exit 1; \
	done

## lint: go vet, staticcheck, Temporal's workflowcheck, a tidy go.mod, and no forbidden import (the table in internal/arrows)
lint: bin/staticcheck bin/workflowcheck
	go vet ./...
	$(BIN)/staticcheck ./...
	$(BIN)/workflowcheck -config workflowcheck.config.yaml ./...
	go mod tidy -diff
	go run ./internal/arrows

## histories: record a set of workflow histories for the replay test: make histories SET=<name> (see docs/workflows.md, "Changing workflow code")
histories: bin/temporal pdftools
	@test -n "$(SET)" || { echo 'usage: make histories SET=<name>, e.g. SET=$$(date +%F)-what-changed (<date>.N-what-changed for a second set that day: the newest must sort last)'; exit 1; }
	LEXFLOW_RECORD_HISTORIES=$(CURDIR)/workflows/testdata/histories/$(SET) go test -count=1 -run '^(TestCaseStory|TestDocumentStory|TestLongCaseContinuesAsNew|TestBudgetExhaustedWaitsUntilRaised|TestRetention|TestCaseDeadlines|TestCourtWatchFindsANewHearing|TestMemoryFacts|TestTimelineChart)$$' ./e2e/api/ ./e2e/story/

## versions: per workflow.GetVersion change ID, the open runs that may still replay its old branch (TEMPORAL_ADDRESS, localhost:7233 unless set)
versions:
	go run ./cmd/lexflow versions

## bench: chat turns through Temporal next to the floor (a bare workflow of the same shape) and the same loop in-process, and where their time goes
bench: bin/temporal
	go test -run '^$$' -bench . -benchtime 200x ./e2e/bench/

## eval: the citation check, kb_search and legislation_search (each layer on and off) measured on the evaluation set in eval/ (the tables of docs/tools.md)
eval:
	go run ./cmd/lexflow-bench eval

# RECORDED_SCENARIOS are the agent scenarios whose model exchanges are kept in
# eval/agent/recordings: make test replays every scenario recorded there.
RECORDED_SCENARIOS := it-research-civil-code,ro-draft-notice-parties,en-ladder-missing-party,ro-document-lease

# OFFLINE_MODEL clears the model endpoints, so that the offline model answers.
OFFLINE_MODEL := LEXFLOW_ASSISTANT_BASE_URL= LEXFLOW_REASONER_BASE_URL=

## eval-agent: every agent scenario in eval/agent/ run end to end on the offline model and scored, the report in the terminal and in data/eval-agent.json (a configured model: go run ./cmd/lexflow-bench eval agent, see docs/testing.md)
eval-agent: bin/temporal
	LEXFLOW_CORPUS_DB=$(TEST_CORPUS) go run ./cmd/lexflow corpus load
	mkdir -p data
	$(OFFLINE_MODEL) LEXFLOW_CORPUS_DB=$(TEST_CORPUS) go run ./cmd/lexflow-bench eval agent --json data/eval-agent.json

## record-offline: record again from the offline model the agent scenarios that make test replays (RECORDED_SCENARIOS, into eval/agent/recordings)
record-offline: bin/temporal
	LEXFLOW_CORPUS_DB=$(TEST_CORPUS) go run ./cmd/lexflow corpus load
	$(OFFLINE_MODEL) LEXFLOW_CORPUS_DB=$(TEST_CORPUS) go run ./cmd/lexflow-bench eval agent --record --run $(RECORDED_SCENARIOS)

## bench-stream: streamed turns, from the model's chunks to an SSE client, worker in the API's process and apart
bench-stream: bin/temporal
	go run ./cmd/lexflow-bench stream

## bench-load: 200 cases × 5 turns at once through the HTTP API, the API and the worker as processes, its audit, then wrk on the read routes (LOAD_FLAGS: more flags, see `go run ./cmd/lexflow-bench load -h`)
## bench-chaos: the same load with the worker killed (SIGKILL) 50 times and the API restarted 3 times, and its audit
bench-load: bin/temporal
	command -v wrk >/dev/null || ($(APT) update && $(APT) install -y wrk)
	LEXFLOW_CORPUS_DB=$(TEST_CORPUS) go run ./cmd/lexflow corpus load
	LEXFLOW_CORPUS_DB=$(TEST_CORPUS) go run ./cmd/lexflow-bench load $(LOAD_FLAGS)

bench-chaos: bin/temporal
	LEXFLOW_CORPUS_DB=$(TEST_CORPUS) go run ./cmd/lexflow corpus load
	LEXFLOW_CORPUS_DB=$(TEST_CORPUS) go run ./cmd/lexflow-bench load --chaos --wrk 0 $(LOAD_FLAGS)

## bench-research: legislation_search, kb_search and normattiva_search timed beside a naive LIKE scan, on the shipped corpus and on a synthetic million-article one (built once into LEXFLOW_DATA_DIR, about 15 minutes)
bench-research:
	LEXFLOW_CORPUS_DB=$(TEST_CORPUS) go run ./cmd/lexflow corpus load
	LEXFLOW_CORPUS_DB=$(TEST_CORPUS) go run ./cmd/lexflow-bench research

## bench-pdf: a 10-page draft rendered by Lexflow's pure-Go renderer next to WeasyPrint
bench-pdf:
	command -v weasyprint >/dev/null || ($(APT) update && $(APT) install -y weasyprint)
	go run ./cmd/lexflow-bench pdf

# NPM_DIR holds the npm packages the tests run: panva's oidc-provider, a real OpenID
# Provider for the sign-in tests; axe-core, the accessibility check the browser tests
# run in the page; @firestore-emulator/server, the Firestore emulator; and
# openapi-typescript with typescript, which generate and compile a client of the API's
# OpenAPI document. node comes from apt when it is missing.
NPM_DIR := $(CURDIR)/data/npm
OIDC_PROVIDER_VERSION := 9.13.3
AXE_CORE_VERSION := 4.14.1
FIRESTORE_EMULATOR_VERSION := 0.3.15
OPENAPI_TYPESCRIPT_VERSION := 7.13.0
TYPESCRIPT_VERSION := 5.9.3
NPM_PACKAGES := $(NPM_DIR)/node_modules/oidc-provider $(NPM_DIR)/node_modules/axe-core $(NPM_DIR)/node_modules/@firestore-emulator/server \
	$(NPM_DIR)/node_modules/openapi-typescript $(NPM_DIR)/node_modules/typescript

## npm: the npm packages the tests and the Firestore dev store run, into data/npm
npm: $(NPM_PACKAGES)

$(NPM_PACKAGES) &:
	command -v node >/dev/null && command -v npm >/dev/null || ($(APT) update && $(APT) install -y nodejs npm)
	npm install --prefix $(NPM_DIR) --no-audit --no-fund --no-save oidc-provider@$(OIDC_PROVIDER_VERSION) axe-core@$(AXE_CORE_VERSION) \
		@firestore-emulator/server@$(FIRESTORE_EMULATOR_VERSION) openapi-typescript@$(OPENAPI_TYPESCRIPT_VERSION) typescript@$(TYPESCRIPT_VERSION)

## chromium: Debian's headless Chromium, which the browser tests drive
chromium:
	command -v chromium >/dev/null || ($(APT) update && $(APT) install -y chromium)

# BROWSER_OUT keeps the screenshots of `make browser-test`, one directory per test.
BROWSER_OUT := $(CURDIR)/data/browser

## browser-test: every browser story (client, support, reconnect, OIDC sign-in), screenshots into data/browser
browser-test: bin/temporal bin/temporal-ui npm chromium
	LEXFLOW_CORPUS_DB=$(TEST_CORPUS) go run ./cmd/lexflow corpus load
	mkdir -p $(BROWSER_OUT)
	LEXFLOW_TEST_CORPUS=$(TEST_CORPUS) LEXFLOW_BROWSER_STORIES=all go test -count=1 -timeout 20m -artifacts -outputdir $(BROWSER_OUT) ./e2e/browser/

## pdftools: pdftotext and pdffonts, which the draft tests read PDFs with
pdftools:
	command -v pdftotext >/dev/null && command -v pdffonts >/dev/null || ($(APT) update && $(APT) install -y poppler-utils)

## ocr: tesseract with its Romanian and Italian data, which reads scanned and photographed documents
ocr:
	command -v tesseract >/dev/null && tesseract --list-langs 2>/dev/null | grep -qx ron && tesseract --list-langs 2>/dev/null | grep -qx ita || \
		($(APT) update && $(APT) install -y tesseract-ocr tesseract-ocr-ron tesseract-ocr-ita)

## corpus-archive: rebuild corpus/data/legal.tar.gz from ../shared/data/legal, byte for byte reproducibly
corpus-archive:
	cd ../shared/data && tar --sort=name --mtime='2026-01-01 00:00Z' --owner=0 --group=0 --numeric-owner -cf - legal \
		| gzip -n -9 > $(CURDIR)/corpus/data/legal.tar.gz

tools: bin/temporal bin/temporal-ui bin/staticcheck bin/workflowcheck bin/stripe-mock bin/temporal-server

# The Temporal server and temporal-sql-tool, built from the module proxy (about 3
# minutes), and the PostgreSQL schema of that server version, copied from the module.
bin/temporal-server bin/temporal-sql-tool bin/temporal-schema &:
	GOBIN=$(BIN)/.install go install go.temporal.io/server/cmd/server@$(TEMPORAL_SERVER_VERSION) go.temporal.io/server/cmd/tools/sql@$(TEMPORAL_SERVER_VERSION)
	mv $(BIN)/.install/server $(BIN)/temporal-server
	mv $(BIN)/.install/sql $(BIN)/temporal-sql-tool
	rmdir $(BIN)/.install
	rm -rf $(BIN)/temporal-schema
	cp -r $$(go env GOMODCACHE)/go.temporal.io/server@$(TEMPORAL_SERVER_VERSION)/schema/postgresql/v12 $(BIN)/temporal-schema
	chmod -R u+w $(BIN)/temporal-schema

## postgres: Debian's PostgreSQL 15, which the cluster tests run Temporal on
postgres:
	test -x /usr/lib/postgresql/15/bin/postgres || ($(APT) update && $(APT) install -y postgresql)

bin/temporal:
	go install github.com/temporalio/cli/cmd/temporal@$(TEMPORAL_CLI_VERSION)

# The Temporal UI server, built alone so that `lexflow dev` can configure what the
# CLI's embedded copy cannot: the Web UI sending the codec session's cookie.
bin/temporal-ui:
	go install github.com/temporalio/ui-server/v2/cmd/server@$(TEMPORAL_UI_VERSION)
	mv $(BIN)/server $@

bin/staticcheck:
	go install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

bin/workflowcheck:
	go install go.temporal.io/sdk/contrib/tools/workflowcheck@$(WORKFLOWCHECK_VERSION)

# Stripe's own mock of its API, which the Stripe payment provider is tested against.
bin/stripe-mock:
	go install github.com/stripe/stripe-mock@$(STRIPE_MOCK_VERSION)

## clean: remove installed tools and all dev state (cases, secrets) under ./data
clean:
	rm -rf bin data
