package main

import (
	"bytes"
	"io"
	"log/slog"
	"strings"
	"testing"
)

func TestParseConfigBlobStore(t *testing.T) {
	t.Parallel()
	t.Run("no setting keeps blobs on disk", func(t *testing.T) {
		c, err := parseConfig(nil, envOf(nil), io.Discard)
		if err != nil || c.Blobs.Store != blobStoreDisk {
			t.Fatalf("default blob store %q, %v; want disk", c.Blobs.Store, err)
		}
	})
	valid := []map[string]string{
		{"BLOB_STORE": "azure", "AZURE_STORAGE_ACCOUNT_URL": "https://acct.blob.core.windows.net"},
		{"BLOB_STORE": "azure", "AZURE_STORAGE_ACCOUNT_URL": "http://127.0.0.1:10000/devstoreaccount1", "AZURE_STORAGE_CONTAINER": "team-a"},
		{"BLOB_STORE": "azure", "AZURE_STORAGE_CONNECTION_STRING": "UseDevelopmentStorage=true"},
	}
	for _, env := range valid {
		if c, err := parseConfig(nil, envOf(env), io.Discard); err != nil || c.Blobs.Store != blobStoreAzure {
			t.Errorf("%v: %v", env, err)
		}
	}
	bad := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"BLOB_STORE": "s3"}, `BLOB_STORE: "s3" is neither disk nor azure`},
		{map[string]string{"BLOB_STORE": "azure"}, "set AZURE_STORAGE_ACCOUNT_URL (with a managed identity) or AZURE_STORAGE_CONNECTION_STRING"},
		{map[string]string{"BLOB_STORE": "azure", "AZURE_STORAGE_ACCOUNT_URL": "https://a.blob.core.windows.net",
			"AZURE_STORAGE_CONNECTION_STRING": "UseDevelopmentStorage=true"}, "set one, not both"},
		{map[string]string{"BLOB_STORE": "azure", "AZURE_STORAGE_ACCOUNT_URL": "http://acct.blob.core.windows.net"}, "AZURE_STORAGE_ACCOUNT_URL: want https://"},
		{map[string]string{"BLOB_STORE": "azure", "AZURE_STORAGE_ACCOUNT_URL": "https://a.blob.core.windows.net?sv=2024&sig=x"}, "AZURE_STORAGE_ACCOUNT_URL: want https://"},
		{map[string]string{"BLOB_STORE": "azure", "AZURE_STORAGE_ACCOUNT_URL": "https://a.blob.core.windows.net", "AZURE_STORAGE_CONTAINER": "Team_A"}, `AZURE_STORAGE_CONTAINER: "Team_A" is not a container name`},
		{map[string]string{"BLOB_STORE": "azure", "AZURE_STORAGE_ACCOUNT_URL": "https://a.blob.core.windows.net", "AZURE_STORAGE_CONTAINER": "a--b"}, "AZURE_STORAGE_CONTAINER"},
		{map[string]string{"AZURE_STORAGE_CONNECTION_STRING": "UseDevelopmentStorage=true"}, "set BLOB_STORE=azure to use them"},
	}
	for _, tt := range bad {
		if _, err := parseConfig(nil, envOf(tt.env), io.Discard); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want one saying %q", tt.env, err, tt.want)
		}
	}
}

func TestConfigLogHidesTheConnectionString(t *testing.T) {
	c, err := parseConfig(nil, envOf(map[string]string{"BLOB_STORE": "azure",
		"AZURE_STORAGE_CONNECTION_STRING": "AccountName=a;AccountKey=key-secret-0123;EndpointSuffix=core.windows.net"}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("starting", "config", c)
	if strings.Contains(buf.String(), "key-secret") || !strings.Contains(buf.String(), `"azure_storage_connection_string":"set"`) {
		t.Fatalf("log line: %s", buf.String())
	}
}

// TestOpenBlobsNamesTheBadSetting starts the Azure store with a connection
// string it cannot read: the error names the setting and the container.
func TestOpenBlobsNamesTheBadSetting(t *testing.T) {
	cfg := config{DataDir: t.TempDir(), Blobs: blobSettings{Store: blobStoreAzure, ConnectionString: "no such thing", Container: "files"}}
	_, err := openBlobs(t.Context(), cfg)
	if err == nil || !strings.Contains(err.Error(), "AZURE_STORAGE_CONNECTION_STRING") || !strings.Contains(err.Error(), `"files"`) {
		t.Fatalf("openBlobs = %v, want an error naming the setting and the container", err)
	}
	t.Log(err)
}
