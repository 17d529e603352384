// Package files receives the files analysts upload into a conversation.
//
// It checks that a file is of a type the Code Interpreter sandbox can read
// and that its content agrees with its name ([Check]), streams it to a
// content-addressed store while hashing it ([BlobStore]: on disk, [Blobs],
// or in Azure Blob Storage, [AzureBlobs]), refusing a ZIP-based file whose
// directory marks it as a zip bomb before any parser opens it
// ([BlobStore.Stage]), and describes tabular files at once, without loading
// them whole ([Profile]), a bounded number at a time ([Profiler]).
//
// Refusals the user should read are [*UserError] values whose Error is a full
// sentence saying what happened and what to do; every other error is an
// internal one, prefixed "files: ". The package imports nothing else of this
// module.
package files
