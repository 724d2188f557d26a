import { useId } from "react";
import { useForm } from "react-hook-form";
import type { SignInRequest } from "@storefit/contract";
import { useSignIn } from "../../api/session";
import { CLIENT_ERROR_CODES, isApiRequestError } from "../../api/client";
import { Form, FormError, SubmitButton, TextInput } from "../../components/form";

function signInErrorMessage(error: Error): string {
  if (isApiRequestError(error)) {
    if (error.code === CLIENT_ERROR_CODES.network) return error.message;
    // The server's own words for a wrong password, a locked account, a bad request.
    if (error.status < 500) return error.message;
  }
  return "Sign-in failed on the server. Please try again.";
}

/**
 * On success the session query holds the new session and LoginPage redirects to the app. The
 * browser checks the two fields (required, an email) before anything is sent; a refusal is one
 * message for the whole form, which both fields point to.
 */
export function LoginForm() {
  const signIn = useSignIn();
  const form = useForm<SignInRequest>({ defaultValues: { email: "", password: "" } });
  const errorId = useId();
  const failed = signIn.isError ? errorId : undefined;

  return (
    <Form
      form={form}
      onSubmit={({ email, password }) => signIn.mutate({ email: email.trim(), password })}
      noValidate={false}
      className="form"
      aria-busy={signIn.isPending}
    >
      {signIn.isError ? (
        <FormError id={errorId}>{signInErrorMessage(signIn.error)}</FormError>
      ) : null}
      <TextInput
        control={form.control}
        name="email"
        label="Email"
        type="email"
        autoComplete="username"
        required
        autoFocus
        invalid={signIn.isError}
        describedBy={failed}
      />
      <TextInput
        control={form.control}
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        invalid={signIn.isError}
        describedBy={failed}
      />
      <SubmitButton pending={signIn.isPending} className="button--block">
        Sign in
      </SubmitButton>
    </Form>
  );
}
