import { type FormEvent, useId, useState } from "react";
import { useSignIn } from "../../api/session";
import { CLIENT_ERROR_CODES, isApiRequestError } from "../../api/client";

function signInErrorMessage(error: Error): string {
  if (isApiRequestError(error)) {
    if (error.code === CLIENT_ERROR_CODES.network) return error.message;
    // The server's own words for a wrong password, a locked account, a bad request.
    if (error.status < 500) return error.message;
  }
  return "Sign-in failed on the server. Please try again.";
}

/** On success the session query holds the new session and LoginPage redirects to the app. */
export function LoginForm() {
  const signIn = useSignIn();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const id = useId();
  const errorId = `${id}-error`;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    signIn.mutate({ email: email.trim(), password });
  };

  const describedBy = signIn.isError ? errorId : undefined;

  return (
    <form className="form" onSubmit={onSubmit} aria-busy={signIn.isPending}>
      {signIn.isError ? (
        <p className="form__error" role="alert" id={errorId}>
          {signInErrorMessage(signIn.error)}
        </p>
      ) : null}
      <div className="field">
        <label className="field__label" htmlFor={`${id}-email`}>
          Email
        </label>
        <input
          className="field__input"
          id={`${id}-email`}
          name="email"
          type="email"
          autoComplete="username"
          required
          autoFocus
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={signIn.isError || undefined}
          aria-describedby={describedBy}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-password`}>
          Password
        </label>
        <input
          className="field__input"
          id={`${id}-password`}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          aria-invalid={signIn.isError || undefined}
          aria-describedby={describedBy}
        />
      </div>
      <button
        type="submit"
        className="button button--primary button--block"
        disabled={signIn.isPending}
      >
        Sign in
      </button>
    </form>
  );
}
