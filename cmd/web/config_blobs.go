package main

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
)

// Where the bytes of uploaded and generated files are kept (BLOB_STORE).
const (
	blobStoreDisk  = "disk"
	blobStoreAzure = "azure"
)

// blobSettings are BLOB_STORE and the AZURE_STORAGE_* settings of the
// Azure Blob Storage back end, which several replicas share.
type blobSettings struct {
	Store string
	// AccountURL is the account's blob endpoint, reached with
	// DefaultAzureCredential (a managed identity in production).
	AccountURL string
	// ConnectionString is used instead of AccountURL: an account key, a
	// SAS, or Azurite's.
	ConnectionString string
	Container        string
}

// defaultBlobContainer is the container used unless AZURE_STORAGE_CONTAINER
// names another.
const defaultBlobContainer = "workbench"

// define registers the flags, with defaults from the environment.
func (b *blobSettings) define(fs *flag.FlagSet, env func(name, def string) string) {
	fs.StringVar(&b.Store, "blob-store", env("BLOB_STORE", blobStoreDisk), "where file bytes are kept: disk (DATA_DIR/blobs) or azure (BLOB_STORE)")
	fs.StringVar(&b.AccountURL, "azure-storage-account-url", env("AZURE_STORAGE_ACCOUNT_URL", ""), "https://<account>.blob.core.windows.net, with Azure credentials (AZURE_STORAGE_ACCOUNT_URL)")
	fs.StringVar(&b.ConnectionString, "azure-storage-connection-string", env("AZURE_STORAGE_CONNECTION_STRING", ""), "storage connection string, instead of the account URL (AZURE_STORAGE_CONNECTION_STRING)")
	fs.StringVar(&b.Container, "azure-storage-container", env("AZURE_STORAGE_CONTAINER", defaultBlobContainer), "blob container of the files, created if missing (AZURE_STORAGE_CONTAINER)")
}

// containerName is Azure's rule for container names: 3 to 63 lower-case
// letters, digits and single hyphens, starting and ending with a letter or
// digit.
var containerName = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9]|-[a-z0-9]){2,62}$`)

// validate returns every mistake in the settings, each naming its setting.
func (b blobSettings) validate() []error {
	switch b.Store {
	case blobStoreDisk:
		if b.AccountURL != "" || b.ConnectionString != "" {
			return []error{errors.New("AZURE_STORAGE_ACCOUNT_URL, AZURE_STORAGE_CONNECTION_STRING: set BLOB_STORE=azure to use them")}
		}
		return nil
	case blobStoreAzure:
	default:
		return []error{fmt.Errorf("BLOB_STORE: %q is neither disk nor azure", b.Store)}
	}
	var errs []error
	switch {
	case b.AccountURL == "" && b.ConnectionString == "":
		errs = append(errs, errors.New("BLOB_STORE=azure: set AZURE_STORAGE_ACCOUNT_URL (with a managed identity) or AZURE_STORAGE_CONNECTION_STRING"))
	case b.AccountURL != "" && b.ConnectionString != "":
		errs = append(errs, errors.New("AZURE_STORAGE_ACCOUNT_URL and AZURE_STORAGE_CONNECTION_STRING: set one, not both"))
	case b.AccountURL != "" && !accountURL(b.AccountURL):
		errs = append(errs, errors.New("AZURE_STORAGE_ACCOUNT_URL: want https://<account>.blob.core.windows.net (http only on loopback), with no query"))
	}
	if !containerName.MatchString(b.Container) {
		errs = append(errs, fmt.Errorf("AZURE_STORAGE_CONTAINER: %q is not a container name (3 to 63 lower-case letters, digits and single hyphens)", b.Container))
	}
	return errs
}

// accountURL reports whether s can be an account's blob endpoint: https, or
// http on loopback (Azurite, whose URLs carry the account in the path). A
// query would be a SAS, which belongs in a connection string.
func accountURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && webURL(s) && u.RawQuery == "" && u.User == nil
}

// logAttrs are the settings for the start-up log, the connection string
// (which holds a key) hidden.
func (b blobSettings) logAttrs() []slog.Attr {
	cs := "unset"
	if b.ConnectionString != "" {
		cs = "set"
	}
	return []slog.Attr{slog.String("blob_store", b.Store), slog.String("azure_storage_account_url", b.AccountURL),
		slog.String("azure_storage_connection_string", cs), slog.String("azure_storage_container", b.Container)}
}
