package main

import (
	"bytes"
	"io"
	"log/slog"
	"maps"
	"strings"
	"testing"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestParseConfig(t *testing.T) {
	t.Parallel()
	t.Run("defaults run the local engine", func(t *testing.T) {
		c, err := parseConfig(nil, envOf(nil), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if c.Addr != ":8080" || c.DataDir != "./data" || !c.localEngine() || c.SandboxIsolation != "bwrap" || c.LogFormat != "text" {
			t.Fatalf("defaults: %+v", c)
		}
	})
	t.Run("flags win over the environment", func(t *testing.T) {
		c, err := parseConfig([]string{"-addr", ":9000", "-retention-days", "30"}, envOf(map[string]string{"ADDR": ":7000", "RETENTION_DAYS": "5"}), io.Discard)
		if err != nil || c.Addr != ":9000" || c.RetentionDays != 30 {
			t.Fatalf("got %+v, %v", c, err)
		}
	})
	t.Run("every mistake is reported at once", func(t *testing.T) {
		_, err := parseConfig(nil, envOf(map[string]string{
			"ADMIN_USERNAME":           "ops",
			"FOUNDRY_PROJECT_ENDPOINT": "http://example.com/x",
			"SANDBOX_ISOLATION":        "docker",
			"LOG_FORMAT":               "xml",
		}), io.Discard)
		for _, want := range []string{"ADMIN_USERNAME and ADMIN_PASSWORD", "FOUNDRY_PROJECT_ENDPOINT", "FOUNDRY_MODEL_DEPLOYMENT", "SANDBOX_ISOLATION", "LOG_FORMAT"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("error %v does not mention %s", err, want)
			}
		}
	})
	t.Run("a model URL needs a model name", func(t *testing.T) {
		_, err := parseConfig(nil, envOf(map[string]string{"ANALYST_MODEL_URL": "http://127.0.0.1:11434/v1"}), io.Discard)
		if err == nil || !strings.Contains(err.Error(), "ANALYST_MODEL:") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("the user quota", func(t *testing.T) {
		c, err := parseConfig(nil, envOf(nil), io.Discard)
		if err != nil || c.UserQuotaMB != 10240 {
			t.Errorf("default: %d, %v; want 10240", c.UserQuotaMB, err)
		}
		c, err = parseConfig([]string{"-user-quota-mb", "0"}, envOf(map[string]string{"USER_QUOTA_MB": "500"}), io.Discard)
		if err != nil || c.UserQuotaMB != 0 {
			t.Errorf("the flag over the environment: %d, %v; want 0, no quota", c.UserQuotaMB, err)
		}
		for _, bad := range []string{"-1", "lots"} {
			if _, err := parseConfig(nil, envOf(map[string]string{"USER_QUOTA_MB": bad}), io.Discard); err == nil || !strings.Contains(err.Error(), "USER_QUOTA_MB") {
				t.Errorf("USER_QUOTA_MB=%s: err = %v", bad, err)
			}
		}
	})
	t.Run("a bad number of days", func(t *testing.T) {
		if _, err := parseConfig(nil, envOf(map[string]string{"RETENTION_DAYS": "ten"}), io.Discard); err == nil {
			t.Fatal("accepted RETENTION_DAYS=ten")
		}
	})
	t.Run("sandbox memory budgets", func(t *testing.T) {
		for in, want := range map[string]int64{"": 0, "8GiB": 8 << 30, "1.5G": 3 << 29, "600MB": 600e6, "2048M": 2 << 30, "1073741824": 1 << 30} {
			c, err := parseConfig([]string{"-sandbox-memory-budget", in}, envOf(nil), io.Discard)
			if err != nil || c.SandboxMemoryBudget != want {
				t.Errorf("%q: %d, %v; want %d", in, c.SandboxMemoryBudget, err, want)
			}
		}
		for _, bad := range []string{"lots", "-1G", "100MB"} {
			if _, err := parseConfig(nil, envOf(map[string]string{"SANDBOX_MEMORY_BUDGET": bad}), io.Discard); err == nil || !strings.Contains(err.Error(), "SANDBOX_MEMORY_BUDGET") {
				t.Errorf("%q: accepted, or the error does not name the setting: %v", bad, err)
			}
		}
	})
	t.Run("Code Interpreter container sizes", func(t *testing.T) {
		for _, in := range []string{"", "1g", "4g", "16g", "64g"} {
			c, err := parseConfig([]string{"-foundry-memory-limit", in}, envOf(nil), io.Discard)
			if err != nil || c.FoundryMemoryLimit != in {
				t.Errorf("%q: %q, %v", in, c.FoundryMemoryLimit, err)
			}
		}
		for _, bad := range []string{"2g", "1G", "1024m"} {
			if _, err := parseConfig(nil, envOf(map[string]string{"FOUNDRY_MEMORY_LIMIT": bad}), io.Discard); err == nil || !strings.Contains(err.Error(), "FOUNDRY_MEMORY_LIMIT") {
				t.Errorf("%q: accepted, or the error does not name the setting: %v", bad, err)
			}
		}
	})
	t.Run("warm sandbox kernels", func(t *testing.T) {
		c, err := parseConfig(nil, envOf(map[string]string{"SANDBOX_WARM": "10"}), io.Discard)
		if err != nil || c.SandboxWarm != 10 {
			t.Errorf("SANDBOX_WARM=10: %d, %v", c.SandboxWarm, err)
		}
		for _, bad := range []string{"ten", "-1", "65"} {
			if _, err := parseConfig(nil, envOf(map[string]string{"SANDBOX_WARM": bad}), io.Discard); err == nil || !strings.Contains(err.Error(), "SANDBOX_WARM") {
				t.Errorf("%q: accepted, or the error does not name the setting: %v", bad, err)
			}
		}
	})
	t.Run("Foundry when an endpoint and a model are set", func(t *testing.T) {
		c, err := parseConfig(nil, envOf(map[string]string{
			"FOUNDRY_PROJECT_ENDPOINT": "https://res.services.ai.azure.com/api/projects/p",
			"FOUNDRY_MODEL_DEPLOYMENT": "gpt-4.1",
		}), io.Discard)
		if err != nil || c.localEngine() {
			t.Fatalf("got %+v, %v", c, err)
		}
	})
}

func TestTrustedProxiesAndMetricsToken(t *testing.T) {
	t.Run("CIDRs and bare addresses", func(t *testing.T) {
		c, err := parseConfig([]string{"-trusted-proxies", "10.0.0.0/8, 192.0.2.7,2001:db8::1", "-metrics-token", "0123456789abcdef"}, envOf(nil), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		nets, _ := c.proxyNets()
		var got []string
		for _, n := range nets {
			got = append(got, n.String())
		}
		if strings.Join(got, " ") != "10.0.0.0/8 192.0.2.7/32 2001:db8::1/128" || c.MetricsToken != "0123456789abcdef" {
			t.Fatalf("proxies %v, token %q", got, c.MetricsToken)
		}
	})
	t.Run("from the environment", func(t *testing.T) {
		c, err := parseConfig(nil, envOf(map[string]string{"TRUSTED_PROXIES": "172.16.0.0/12"}), io.Discard)
		if nets, _ := c.proxyNets(); err != nil || len(nets) != 1 {
			t.Fatalf("got %v, %v", nets, err)
		}
	})
	t.Run("mistakes", func(t *testing.T) {
		_, err := parseConfig(nil, envOf(map[string]string{"TRUSTED_PROXIES": "10.0.0.0/8,proxy.internal", "METRICS_TOKEN": "short"}), io.Discard)
		for _, want := range []string{`TRUSTED_PROXIES: "proxy.internal"`, "METRICS_TOKEN"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("error %v does not mention %s", err, want)
			}
		}
	})
}

func TestConfigLogHidesSecrets(t *testing.T) {
	c, err := parseConfig(nil, envOf(map[string]string{
		"ADMIN_USERNAME": "ops", "ADMIN_PASSWORD": "hunter2-secret-pw", "SESSION_KEYS": "k-secret-0123456789012345678901234567", "ANALYST_API_KEY": "sk-secret",
		"METRICS_TOKEN": "m-secret-0123456789",
	}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("starting", "config", c)
	for _, secret := range []string{"hunter2", "k-secret", "sk-secret", "m-secret"} {
		if strings.Contains(buf.String(), secret) {
			t.Fatalf("log line contains %q: %s", secret, buf.String())
		}
	}
	if !strings.Contains(buf.String(), `"admin_password":"set"`) {
		t.Fatalf("log line does not say the password is set: %s", buf.String())
	}
}

func TestParseConfig_FoundryToken(t *testing.T) {
	emulatorEnv := map[string]string{
		"FOUNDRY_PROJECT_ENDPOINT": "http://127.0.0.1:8081/api/projects/local",
		"FOUNDRY_MODEL_DEPLOYMENT": "local",
		"FOUNDRY_TOKEN":            "tok-secret",
	}
	c, err := parseConfig(nil, envOf(emulatorEnv), io.Discard)
	if err != nil || c.localEngine() || c.FoundryToken != "tok-secret" {
		t.Fatalf("a standalone emulator with a token: %+v, %v", c, err)
	}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("starting", "config", c)
	if strings.Contains(buf.String(), "tok-secret") || !strings.Contains(buf.String(), `"foundry_token":"set"`) {
		t.Errorf("log line: %s", buf.String())
	}
	delete(emulatorEnv, "FOUNDRY_TOKEN")
	if _, err := parseConfig(nil, envOf(emulatorEnv), io.Discard); err == nil {
		t.Error("plain http accepted without a static token")
	}
	if _, err := parseConfig([]string{"-foundry-token", "t"}, envOf(nil), io.Discard); err == nil || !strings.Contains(err.Error(), "FOUNDRY_TOKEN") {
		t.Errorf("a token without an endpoint: %v", err)
	}
}

func TestParseConfigOIDC(t *testing.T) {
	t.Parallel()
	entra := map[string]string{
		"OIDC_ISSUER":         "https://login.microsoftonline.com/0000-tenant/v2.0",
		"OIDC_CLIENT_ID":      "client",
		"OIDC_CLIENT_SECRET":  "secret",
		"OIDC_REDIRECT_URL":   "https://workbench.example.com/auth/oidc/callback",
		"OIDC_ALLOWED_GROUPS": " g1, ,Workbench.User ",
		"OIDC_ADMIN_ROLE":     "Workbench.Admin",
		"LOCAL_LOGIN":         "admins",
	}
	with := func(k, v string) map[string]string {
		m := map[string]string{}
		for key, val := range entra {
			m[key] = val
		}
		m[k] = v
		return m
	}
	t.Run("an Entra registration", func(t *testing.T) {
		c, err := parseConfig(nil, envOf(entra), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		a := c.OIDC.authConfig()
		if strings.Join(a.Policy.AllowedGroups, "|") != "g1|Workbench.User" || a.Policy.AdminRoles[0] != "Workbench.Admin" || c.OIDC.LocalLogin != "admins" {
			t.Fatalf("auth config %+v", a)
		}
	})
	t.Run("a federated token instead of a secret", func(t *testing.T) {
		c, err := parseConfig(nil, envOf(with("OIDC_CLIENT_SECRET", "")), io.Discard)
		if err == nil || !strings.Contains(err.Error(), "OIDC_CLIENT_SECRET") {
			t.Fatalf("neither secret nor token: %v", err)
		}
		env := with("OIDC_CLIENT_SECRET", "")
		env["AZURE_FEDERATED_TOKEN_FILE"] = "/var/run/secrets/azure/tokens/azure-identity-token"
		if c, err = parseConfig(nil, envOf(env), io.Discard); err != nil || c.OIDC.AssertionFile != env["AZURE_FEDERATED_TOKEN_FILE"] {
			t.Fatalf("AZURE_FEDERATED_TOKEN_FILE: %+v, %v", c.OIDC, err)
		}
	})
	for _, tc := range []struct{ key, value, want string }{
		{"OIDC_ISSUER", "http://login.example.com/t/v2.0", "OIDC_ISSUER"},
		{"OIDC_CLIENT_ID", "", "OIDC_CLIENT_ID"},
		{"OIDC_REDIRECT_URL", "https://workbench.example.com/callback", "OIDC_REDIRECT_URL"},
		{"OIDC_REDIRECT_URL", "http://workbench.example.com/auth/oidc/callback", "OIDC_REDIRECT_URL"},
		{"LOCAL_LOGIN", "nobody", "LOCAL_LOGIN"},
	} {
		t.Run(tc.key+"="+tc.value, func(t *testing.T) {
			if _, err := parseConfig(nil, envOf(with(tc.key, tc.value)), io.Discard); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one naming %s", err, tc.want)
			}
		})
	}
	t.Run("http on loopback, for a local provider", func(t *testing.T) {
		env := with("OIDC_ISSUER", "http://127.0.0.1:5556/dex")
		env["OIDC_REDIRECT_URL"] = "http://localhost:8080/auth/oidc/callback"
		if _, err := parseConfig(nil, envOf(env), io.Discard); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("settings without an issuer", func(t *testing.T) {
		_, err := parseConfig(nil, envOf(map[string]string{"OIDC_CLIENT_ID": "client", "LOCAL_LOGIN": "admins"}), io.Discard)
		if err == nil || !strings.Contains(err.Error(), "set OIDC_ISSUER too") || !strings.Contains(err.Error(), "LOCAL_LOGIN=admins") {
			t.Fatalf("err = %v", err)
		}
		// A token file alone is Foundry's workload identity, not an error.
		if _, err := parseConfig(nil, envOf(map[string]string{"AZURE_FEDERATED_TOKEN_FILE": "/t"}), io.Discard); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("the secret is not logged", func(t *testing.T) {
		c, _ := parseConfig(nil, envOf(entra), io.Discard)
		var buf bytes.Buffer
		slog.New(slog.NewTextHandler(&buf, nil)).Info("x", "config", c)
		if strings.Contains(buf.String(), "=secret") || !strings.Contains(buf.String(), "oidc_client_secret=set") {
			t.Fatalf("log: %s", buf.String())
		}
	})
}

// TestParseConfig_SharedMode: DATABASE_URL needs the cookie secrets every
// replica shares and an engine outside the process, and its password never
// reaches the log.
func TestParseConfig_SharedMode(t *testing.T) {
	shared := map[string]string{
		"DATABASE_URL":             "postgres://wb:s3cret-pw@db.example.com:5432/workbench?sslmode=require",
		"SESSION_KEYS":             strings.Repeat("k", 32),
		"FOUNDRY_PROJECT_ENDPOINT": "http://127.0.0.1:8081/api/projects/local",
		"FOUNDRY_MODEL_DEPLOYMENT": "local",
		"FOUNDRY_TOKEN":            "tok-secret",
	}
	c, err := parseConfig(nil, envOf(shared), io.Discard)
	if err != nil || c.DatabaseURL != shared["DATABASE_URL"] {
		t.Fatalf("shared mode: %+v, %v", c, err)
	}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("starting", "config", c)
	if strings.Contains(buf.String(), "s3cret-pw") || !strings.Contains(buf.String(), "db.example.com") {
		t.Errorf("log line: %s", buf.String())
	}
	for _, tc := range []struct {
		drop, set, want string
	}{
		{drop: "SESSION_KEYS", want: "SESSION_KEYS: required with DATABASE_URL"},
		{drop: "FOUNDRY_PROJECT_ENDPOINT", want: "shared mode needs Foundry"},
		{set: "mysql://x", want: "DATABASE_URL: want postgres://"},
	} {
		env := maps.Clone(shared)
		delete(env, tc.drop)
		if tc.drop == "FOUNDRY_PROJECT_ENDPOINT" {
			delete(env, "FOUNDRY_TOKEN")
			delete(env, "FOUNDRY_MODEL_DEPLOYMENT")
		}
		if tc.set != "" {
			env["DATABASE_URL"] = tc.set
		}
		if _, err := parseConfig(nil, envOf(env), io.Discard); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("without %s / with %s: err = %v, want %q", tc.drop, tc.set, err, tc.want)
		}
	}
}
