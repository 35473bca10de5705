# The web interface in frontend/: its dependencies, build, unit tests and
# browser end-to-end tests. Filled in by the frontend work.

.PHONY: frontend frontend-test e2e-test

## frontend: build the web UI into frontend/dist (embedded in the binary)
frontend:

## frontend-test: unit tests of the web UI
frontend-test:

## e2e-test: browser end-to-end tests against a real server
e2e-test:
