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

// waitLimit bounds every wait of these tests: a wait that runs out fails
// the test instead of hanging it.
const waitLimit = 20 * time.Second

// await returns what ch yields, and fails the test when nothing comes
// within waitLimit.
func await[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(waitLimit):
		t.Fatalf("no %s within %s", what, waitLimit)
		panic("unreachable")
	}
}

// TestServeLetsRequestsInFlightFinish cancels the server's context while a
// request runs: the request still completes after the server stopped
// listening, then serve returns.
func TestServeLetsRequestsInFlightFinish(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()

	started, finish := make(chan struct{}), make(chan struct{})
	slow := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		select {
		case <-finish:
			io.WriteString(w, "finished")
		case <-r.Context().Done():
			io.WriteString(w, "cancelled")
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- serve(ctx, addr, slow, slog.New(slog.DiscardHandler)) }()

	type answer struct {
		body string
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		var err error
		for i := 0; i < 100; i++ { // until serve listens
			var resp *http.Response
			if resp, err = http.Get("http://" + addr + "/"); err == nil {
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				got <- answer{string(body), nil}
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		got <- answer{"", err}
	}()
	select {
	case <-started:
	case a := <-got:
		t.Fatalf("the request never reached the handler: %v", a.err)
	case <-time.After(waitLimit):
		t.Fatal("the request never reached the handler")
	}
	cancel()
	deadline := time.Now().Add(waitLimit)
	for listening(addr) { // shutdown has begun once serve stops listening
		if time.Now().After(deadline) {
			t.Fatal("serve still listens after its context ended")
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(finish)
	if a := await(t, got, "answer to the request in flight"); a.err != nil || a.body != "finished" {
		t.Fatalf("request in flight: %q, %v", a.body, a.err)
	}
	if err := await(t, served, "return from serve"); err != nil {
		t.Fatalf("serve: %v", err)
	}
}

// listening reports whether something accepts connections at addr.
func listening(addr string) bool {
	c, err := net.Dial("tcp", addr)
	if err == nil {
		c.Close()
	}
	return err == nil
}
