package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPayloadShowRedactsSecretKeys: a raw provider request (not a pi-forge
// capture, which is redacted already) shown by payload show never prints
// the value of an api_key-like key (pi-forge's secret-key rule, §12.3);
// token counts stay.
func TestPayloadShowRedactsSecretKeys(t *testing.T) {
	args, _ := demoArgs(t)
	file := filepath.Join(t.TempDir(), "raw-request.json")
	body := `{"model":"claude-sonnet-4-5","api_key":"sk-ant-SECRET1","metadata":{"user_id":"u","authToken":"SECRET2"},"max_tokens":1024,` +
		`"headers":{"Authorization":"Bearer SECRET3","x-api-key":"SECRET4"},"system":[{"type":"text","text":"You are Pi."}],"messages":[{"role":"user","content":"hi"}]}`
	if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, extra := range [][]string{nil, {"--json"}} {
		code, out, errOut := runCLI(t, in(args, append([]string{"payload", "show", file}, extra...)...)...)
		if code != exitOK || strings.Contains(out+errOut, "SECRET") || !strings.Contains(out, "[redacted]") || !strings.Contains(out, "1024") {
			t.Errorf("payload show %v: exit %d\n%s%s", extra, code, out, errOut)
		}
	}
	code, out, errOut := runCLI(t, in(args, "payload", "diff", file, file, "--json")...)
	if code != exitOK || strings.Contains(out+errOut, "SECRET") {
		t.Errorf("payload diff: exit %d\n%s%s", code, out, errOut)
	}
}
