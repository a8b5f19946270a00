package session

import (
	"example.com/auth/internal/tokens"
)

// SessionManager opens sessions for customers whose tokens verify.
type SessionManager struct {
	verifier *tokens.TokenVerifier
	sessions map[string]string
}

// Open verifies the token and starts a session for its subject.
func (m *SessionManager) Open(token string) (string, error) {
	claims, err := m.verifier.Verify(token)
	if err != nil {
		return "", err
	}
	m.sessions[claims.Subject] = token
	return claims.Subject, nil
}
