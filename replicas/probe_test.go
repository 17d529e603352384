package replicas

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// leads reads workbench_leader{task} from the replica's /metrics (open to
// loopback); ok is false when the replica does not answer.
func (r *replica) leads(task string) (leading, ok bool) {
	client := &http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get(r.url + "/metrics")
	if err != nil {
		return false, false
	}
	defer resp.Body.Close()
	want := `workbench_leader{task="` + task + `"} `
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, found := strings.CutPrefix(sc.Text(), want); found {
			return v == "1", true
		}
	}
	return false, false
}

// waitFor polls cond every 50 ms until it holds or within passes, and
// returns how long it took and whether it held.
func waitFor(within time.Duration, cond func() bool) (time.Duration, bool) {
	start := time.Now()
	for {
		if cond() {
			return time.Since(start), true
		}
		if time.Since(start) > within {
			return time.Since(start), false
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// emulatorCall sends a request to the emulator's project with its token and
// decodes the JSON answer into out (when not nil); it returns the status.
func (c *cluster) emulatorCall(t *testing.T, method, path, body string, out any) int {
	t.Helper()
	req, _ := http.NewRequest(method, c.emuBase+"/api/projects/"+project+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+emuToken)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("emulator %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	if out != nil && resp.StatusCode < 300 {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatalf("emulator %s %s: %v", method, path, err)
		}
	}
	return resp.StatusCode
}

// emulatorRequests counts the requests the emulator logged (it runs with
// -v -log-json: one JSON line per request) by "METHOD path status".
func (c *cluster) emulatorRequests(t *testing.T) map[string]int {
	t.Helper()
	f, err := os.Open(c.emu.log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	counts := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		var line struct {
			Msg, Method, Path string
			Status            int
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.Msg != "request" {
			continue
		}
		counts[fmt.Sprintf("%s %s %d", line.Method, line.Path, line.Status)]++
	}
	return counts
}

func parseInt(s string) int64 {
	n, _ := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return n
}
