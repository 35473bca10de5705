# The scripts in examples/ use curl, jq and Python 3; their tests (in
# go-test) run them. As root on Debian 12 the missing ones are installed
# with apt-get (apt_need, mk/frontend.mk); otherwise the line is printed.

.PHONY: examples-deps

## examples-deps: jq, curl and python3 for examples/
examples-deps:
	$(call apt_need,jq,jq)
	$(call apt_need,curl,curl)
	$(call apt_need,python3,python3)
