package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestServeLetsRequestsInFlightFinish cancels the server's context while a
// slow request runs: the request must still complete, then serve returns.
func TestServeLetsRequestsInFlightFinish(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()

	started := make(chan struct{})
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		select {
		case <-time.After(300 * time.Millisecond):
			io.WriteString(w, "finished")
		case <-r.Context().Done():
			io.WriteString(w, "cancelled")
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- serve(ctx, addr, slow, slog.New(slog.DiscardHandler)) }()

	var resp *http.Response
	var err error
	got := make(chan struct{})
	go func() {
		defer close(got)
		for i := 0; i < 100; i++ {
			if resp, err = http.Get("http://" + addr + "/"); err == nil {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	<-started
	cancel()
	<-got
	if err != nil {
		t.Fatalf("request in flight failed: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	if string(body) != "finished" {
		t.Fatalf("body %q", body)
	}
	if err := <-served; err != nil {
		t.Fatalf("serve: %v", err)
	}
}
