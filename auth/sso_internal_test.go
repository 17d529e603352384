package auth

import (
	"errors"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/store"
)

func TestSSOPolicyRole(t *testing.T) {
	gated := SSOPolicy{AllowedGroups: []string{"g-analysts", "Workbench.User"}, AdminRoles: []string{"Workbench.Admin"}}
	for _, tc := range []struct {
		name    string
		policy  SSOPolicy
		id      Identity
		want    string
		wantErr error
	}{
		{"no policy: everyone an analyst", SSOPolicy{}, Identity{}, store.RoleAnalyst, nil},
		{"allowed by group", gated, Identity{Groups: []string{"g-other", "g-analysts"}}, store.RoleAnalyst, nil},
		{"allowed by app role", gated, Identity{Roles: []string{"Workbench.User"}}, store.RoleAnalyst, nil},
		{"admin role passes the gate", gated, Identity{Roles: []string{"Workbench.Admin"}}, store.RoleAdmin, nil},
		{"admin by group id", SSOPolicy{AdminRoles: []string{"g-admins"}}, Identity{Groups: []string{"g-admins"}}, store.RoleAdmin, nil},
		{"in no allowed group", gated, Identity{Groups: []string{"g-other"}}, "", ErrSSONotAllowed},
		{"groups not listed", gated, Identity{GroupsOverage: true}, "", ErrSSOGroupsOverage},
		{"names match exactly", gated, Identity{Roles: []string{"workbench.admin"}}, "", ErrSSONotAllowed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.policy.role(tc.id)
			if got != tc.want || !errors.Is(err, tc.wantErr) {
				t.Fatalf("role = %q, %v; want %q, %v", got, err, tc.want, tc.wantErr)
			}
		})
	}
}

func TestSSOUsername(t *testing.T) {
	id := Identity{Tenant: "t", ID: "o", Username: "ana@contoso.com"}
	if got := ssoUsername(id); got != "ana@contoso.com" {
		t.Errorf("ssoUsername = %q", got)
	}
	id.Username = "Ana Lytic" // a display name: spaces are not allowed
	if got := ssoUsername(id); !strings.HasPrefix(got, "user-") {
		t.Errorf("ssoUsername of %q = %q, want user-<tag>", id.Username, got)
	}
	long := Identity{Tenant: "t", ID: "o", Username: strings.Repeat("a", MaxUsernameLen)}
	if got := withTag(long.Username, long); len([]rune(got)) != MaxUsernameLen || !strings.HasSuffix(got, "-"+identityTag(long)) {
		t.Errorf("withTag of a long name = %q", got)
	}
}
