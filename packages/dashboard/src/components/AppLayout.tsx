import { NavLink, Outlet } from "react-router";
import { useSignOut } from "../api/session";
import { paths } from "../paths";
import { useSignedInSession } from "./RequireSession";

export function AppLayout() {
  const session = useSignedInSession();
  const signOut = useSignOut();
  // Once signed out, RequireSession sees no session and redirects to the sign-in form.
  const onSignOut = () => signOut.mutate();

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <div className="app-header__inner">
          <div className="brand">
            <span className="brand__mark" aria-hidden="true">
              S
            </span>
            <span className="brand__name">Storefit</span>
          </div>
          <nav className="app-nav" aria-label="Main">
            <NavLink to={paths.experiences} end className="app-nav__link">
              Experiences
            </NavLink>
            <NavLink to={paths.audiences} className="app-nav__link">
              Audiences
            </NavLink>
            <NavLink to={paths.events} className="app-nav__link">
              Live events
            </NavLink>
            <NavLink to={paths.install} className="app-nav__link">
              Install
            </NavLink>
            <NavLink to={paths.settings} className="app-nav__link">
              Settings
            </NavLink>
          </nav>
          <div className="account">
            <div className="account__text">
              <span className="account__name" data-testid="account-name">
                {session.account.name}
              </span>
              <span className="account__email" data-testid="user-email">
                {session.user.email}
              </span>
            </div>
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={onSignOut}
              disabled={signOut.isPending}
            >
              Sign out
            </button>
          </div>
        </div>
        {signOut.isError ? (
          <p className="app-header__error" role="alert">
            Could not sign out: {signOut.error.message}
          </p>
        ) : null}
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
