import { Navigate, Outlet } from "react-router";
import type { SessionInfo } from "@storefit/contract";
import { useSession } from "../api/session";
import { paths } from "../paths";
import { ErrorState, LoadingState } from "./StatusMessage";

/** Route guard: renders the signed-in screens, or sends the visitor to the sign-in form. */
export function RequireSession() {
  const session = useSession();

  if (session.isPending) {
    return (
      <main className="centered-page">
        <LoadingState label="Loading your session…" />
      </main>
    );
  }
  if (session.isError) {
    return (
      <main className="centered-page">
        <ErrorState
          title="Could not check your session"
          error={session.error}
          onRetry={() => void session.refetch()}
        />
      </main>
    );
  }
  if (session.data === null) {
    return <Navigate to={paths.login} replace />;
  }
  return <Outlet />;
}

/** The session inside screens rendered below RequireSession, where it is known to exist. */
export function useSignedInSession(): SessionInfo {
  const { data } = useSession();
  if (!data) throw new Error("useSignedInSession used outside RequireSession");
  return data;
}
