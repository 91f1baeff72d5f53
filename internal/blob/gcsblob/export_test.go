package gcsblob

// SetPageSize sets how many objects a page of s's listings holds, so that a test
// goes through several pages with a few objects.
func (s *Store) SetPageSize(n int) { s.pageSize = n }

// OpenUnchecked is open: a Store that has not called Cloud Storage yet.
var OpenUnchecked = open
