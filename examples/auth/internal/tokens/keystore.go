package tokens

import (
	"errors"
	"sync"
	"time"
)

// SigningKey signs and verifies token signatures.
type SigningKey interface {
	ID() string
	Verify(message, signature []byte) bool
}

// KeyStore finds the signing key a token names.
type KeyStore interface {
	Lookup(keyID string) (SigningKey, error)
}

// RotatingKeyStore keeps the current signing key plus the previous ones until their tokens expire.
type RotatingKeyStore struct {
	mu       sync.RWMutex
	current  SigningKey
	previous map[string]SigningKey
	grace    time.Duration
}

// Lookup returns the current or a still-valid previous signing key.
func (s *RotatingKeyStore) Lookup(keyID string) (SigningKey, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.current != nil && s.current.ID() == keyID {
		return s.current, nil
	}
	if key, ok := s.previous[keyID]; ok {
		return key, nil
	}
	return nil, errors.New("unknown signing key")
}

// Rotate makes next the signing key and keeps the old one for the grace period, so issued tokens stay valid.
func (s *RotatingKeyStore) Rotate(next SigningKey) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.current != nil {
		s.previous[s.current.ID()] = s.current
	}
	s.current = next
}
