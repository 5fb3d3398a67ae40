# pc-crawl golden tests: NAME <TAB> EXIT <TAB> STDOUT <TAB> STDERR <TAB> COMMAND
# (format: see run-golden.sh). These never open a network connection; the
# crawl itself is tested against a local server by tests/crawl/integration.sh.

help-stdout	0	~^Usage:   pc-crawl	empty	pc-crawl --help
help-golden	0	@pc-crawl.help	empty	taskset -c 0 pc-crawl -h
help-table	0	~^\t--delay\tSECONDS\t	empty	pc-crawl --help-table
unknown-option	2	empty	~^pc-crawl: unrecognised option '--bogus'	pc-crawl --bogus
no-seed	2	empty	~no seed URL given	pc-crawl -o x.warc.gz
seed-not-url	2	empty	~seed 'example.org' is not a URL	pc-crawl -o x.warc.gz example.org
seed-not-http	2	empty	~not an http or https URL: 'ftp://example.org/'	pc-crawl -o x.warc.gz ftp://example.org/
bad-scope	2	empty	~--scope must be host, domain or prefix, not 'planet'	pc-crawl --scope planet http://127.0.0.1:9/
bad-regex	2	empty	~--include '\(' is not a valid regular expression	pc-crawl --include '(' http://127.0.0.1:9/
bad-size	2	empty	~--max-body must be a size	pc-crawl --max-body huge http://127.0.0.1:9/
negative-delay	2	empty	~--delay must be at least 0, not '-1'$	pc-crawl --delay -1 http://127.0.0.1:9/
state-needs-file	2	empty	~--state needs -o FILE	pc-crawl --state s http://127.0.0.1:9/
bad-state-file	1	empty	~s: not a pc-crawl state file	echo garbage > s && pc-crawl --state s -o x.warc http://127.0.0.1:9/
missing-seeds-file	1	empty	~nofile: No such file	pc-crawl --seeds nofile -o x.warc
unreachable-robots-means-disallow	0	empty	~1 robots.txt unreachable, 1 disallowed by robots.txt	pc-crawl --retries 0 --delay 0 -o x.warc.gz http://127.0.0.1:9/ && zcat x.warc.gz | grep -aq '^WARC-Type: warcinfo'
empty-seeds-file	2	empty	~no seed URL given	: > s.txt && pc-crawl --seeds s.txt -o x.warc; r=$?; [ ! -e x.warc ] || exit 97; exit $r
state-other-warc	0	~^ok: a state file resumes only its own WARC$	-	bash "$DATA/../crawl/state-other-warc.sh"
crawl-delay-after-robots	0	~^ok: gaps 	-	bash "$DATA/../crawl/crawl-delay.sh"
