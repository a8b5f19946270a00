package main

import (
	"encoding/json"
	"log"
	"net/http"

	"example.com/auth/internal/tokens"
)

type verifyRequest struct {
	Token string `json:"token"`
}

// handleVerify serves POST /verify for billing's AuthClient.
func handleVerify(verifier *tokens.TokenVerifier) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req verifyRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		claims, err := verifier.Verify(req.Token)
		if err != nil {
			json.NewEncoder(w).Encode(map[string]any{"valid": false, "reason": err.Error()})
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"valid": true, "subject": claims.Subject})
	}
}

func main() {
	verifier := tokens.NewTokenVerifier(&tokens.RotatingKeyStore{})
	http.HandleFunc("/verify", handleVerify(verifier))
	log.Fatal(http.ListenAndServe(":8080", nil))
}
