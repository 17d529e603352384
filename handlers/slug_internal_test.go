package handlers

import "testing"

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Which fields had the largest increase in the…": "which-fields-had-the-largest-increase-in-the",
		"Python: import pandas as pd":                   "python-import-pandas-as-pd",
		"Ventes 2026 — Île-de-France":                   "ventes-2026-île-de-france",
		"…":                                             "conversation",
		"a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g h": "a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t-u-v-w-x-y-z-a-b-c-d",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}
