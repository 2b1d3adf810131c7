package resources

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// AuthStatus says whether Pi has credentials for a provider, and where they
// would come from, without ever returning the secret itself.
type AuthStatus struct {
	Configured bool
	// Source is "auth.json", "env <NAME>" or "models.json apiKey"; "" when
	// not configured.
	Source string
}

// providerEnv lists the environment variables Pi reads for providers whose
// variable is not simply <PROVIDER>_API_KEY (inferred from pi-ai's
// conventions; the spec does not list them).
var providerEnv = map[string][]string{
	"anthropic":      {"ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"},
	"google":         {"GEMINI_API_KEY", "GOOGLE_API_KEY"},
	"github-copilot": {"COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"},
	"amazon-bedrock": {"AWS_BEARER_TOKEN_BEDROCK", "AWS_ACCESS_KEY_ID", "AWS_PROFILE"},
	"google-vertex":  {"GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_CLOUD_PROJECT"},
}

// ProviderAuth checks, in order, <agentDir>/auth.json (an entry for the
// provider), the provider's environment variables, and an apiKey for the
// provider in <agentDir>/models.json.
func ProviderAuth(agentDir, provider string, getenv func(string) string) AuthStatus {
	if getenv == nil {
		getenv = os.Getenv
	}
	if raw, err := readRegularFile(filepath.Join(agentDir, "auth.json")); err == nil {
		var m map[string]json.RawMessage
		if json.Unmarshal(trimBOM(raw), &m) == nil {
			if v, ok := m[provider]; ok && string(v) != "null" {
				return AuthStatus{Configured: true, Source: "auth.json"}
			}
		}
	}
	names := providerEnv[provider]
	generic := strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(provider)) + "_API_KEY"
	names = append(names, generic)
	for _, n := range names {
		if getenv(n) != "" {
			return AuthStatus{Configured: true, Source: "env " + n}
		}
	}
	if raw, err := readRegularFile(filepath.Join(agentDir, "models.json")); err == nil {
		var doc struct {
			Providers map[string]struct {
				APIKey string `json:"apiKey"`
			} `json:"providers"`
		}
		if json.Unmarshal(trimBOM(raw), &doc) == nil && doc.Providers[provider].APIKey != "" {
			return AuthStatus{Configured: true, Source: "models.json apiKey"}
		}
	}
	return AuthStatus{}
}
