import { Navigate } from "react-router";
import { useSession } from "../../api/session";
import { LoadingState } from "../../components/StatusMessage";
import { paths } from "../../paths";
import { LoginForm } from "./LoginForm";

export function LoginPage() {
  const session = useSession();

  // Signed in just now, or already (a bookmarked /login): straight to the app.
  if (session.data) return <Navigate to={paths.experiences} replace />;

  return (
    <main className="login-page">
      <title>Sign in · Storefit</title>
      <div className="login-card">
        <div className="brand brand--large">
          <span className="brand__mark" aria-hidden="true">
            S
          </span>
          <span className="brand__name">Storefit</span>
        </div>
        <h1 className="login-card__title">Sign in to your account</h1>
        {session.isPending ? <LoadingState label="Checking your session…" /> : <LoginForm />}
      </div>
    </main>
  );
}
