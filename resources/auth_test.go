package resources

import (
	"path/filepath"
	"testing"
)

func TestProviderAuthSourcesNeverLeakSecrets(t *testing.T) {
	agent := t.TempDir()
	env := map[string]string{"OPENAI_API_KEY": "sk-secret", "GEMINI_API_KEY": "g-secret"}
	getenv := func(k string) string { return env[k] }
	write(t, filepath.Join(agent, "auth.json"), `{"anthropic":{"type":"api_key","key":"sk-ant-secret"},"mistral":null}`)
	write(t, filepath.Join(agent, "models.json"), `{"providers":{"ollama":{"apiKey":"local-secret"}}}`)
	cases := map[string]AuthStatus{
		"anthropic": {true, "auth.json"},
		"openai":    {true, "env OPENAI_API_KEY"},
		"google":    {true, "env GEMINI_API_KEY"},
		"ollama":    {true, "models.json apiKey"},
		"mistral":   {false, ""},
		"groq":      {false, ""},
	}
	for provider, want := range cases {
		if got := ProviderAuth(agent, provider, getenv); got != want {
			t.Errorf("%s: got %+v, want %+v", provider, got, want)
		}
	}
}
