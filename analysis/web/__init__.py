"""The practice table in the browser: the HTTP server and the page (in progress)."""
