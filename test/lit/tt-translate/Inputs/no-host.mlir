// A file with no function at all.
