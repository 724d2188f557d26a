import { Route, Routes } from "react-router";
import { AppLayout } from "./components/AppLayout";
import { RequireSession } from "./components/RequireSession";
import { EventsPage } from "./pages/events/EventsPage";
import { ExperiencesPage } from "./pages/experiences/ExperiencesPage";
import { LoginPage } from "./pages/login/LoginPage";
import { NotFoundPage } from "./pages/NotFoundPage";
import { paths } from "./paths";

export function App() {
  return (
    <Routes>
      <Route path={paths.login} element={<LoginPage />} />
      <Route element={<RequireSession />}>
        <Route element={<AppLayout />}>
          <Route index element={<ExperiencesPage />} />
          <Route path={paths.events} element={<EventsPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
