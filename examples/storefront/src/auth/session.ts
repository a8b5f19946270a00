export interface Session {
  subject: string;
  token: string;
}

let active: Session | null = null;

/** The signed-in customer's session; tokens come from the auth service. */
export function currentSession(): Session {
  if (active === null) {
    throw new Error("not signed in");
  }
  return active;
}

export function signIn(subject: string, token: string): void {
  active = { subject, token };
}
