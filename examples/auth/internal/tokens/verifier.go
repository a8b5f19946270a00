package tokens

import (
	"errors"
	"strings"
	"time"
)

// ErrExpired is returned for a token whose expiry has passed.
var ErrExpired = errors.New("token expired")

// Claims are the verified contents of a token.
type Claims struct {
	Subject string
	KeyID   string
	Expiry  time.Time
}

// TokenVerifier checks a token's signature against the key store and validates its claims.
type TokenVerifier struct {
	keys KeyStore
	now  func() time.Time
}

// NewTokenVerifier builds a verifier over a key store.
func NewTokenVerifier(keys KeyStore) *TokenVerifier {
	return &TokenVerifier{keys: keys, now: time.Now}
}

// Verify checks the token's signature and claims and returns the claims when valid.
func (v *TokenVerifier) Verify(token string) (Claims, error) {
	claims, signature, err := parseClaims(token)
	if err != nil {
		return Claims{}, err
	}
	key, err := v.keys.Lookup(claims.KeyID)
	if err != nil {
		return Claims{}, err
	}
	if !key.Verify([]byte(token), signature) {
		return Claims{}, errors.New("bad signature")
	}
	if v.now().After(claims.Expiry) {
		return Claims{}, ErrExpired
	}
	return claims, nil
}

// parseClaims splits a token into its claims and signature without checking either.
func parseClaims(token string) (Claims, []byte, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return Claims{}, nil, errors.New("malformed token")
	}
	return Claims{Subject: parts[0], KeyID: parts[1]}, []byte(parts[2]), nil
}
