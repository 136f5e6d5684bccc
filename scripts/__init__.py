"""Developer scripts: benchmark, screenshots, and the browser helpers they share with the tests."""
