import { Route, Routes } from "react-router";
import { AppLayout } from "./components/AppLayout";
import { RequireSession } from "./components/RequireSession";
import { AudiencesPage } from "./pages/audiences/AudiencesPage";
import { EventsPage } from "./pages/events/EventsPage";
import { ExperienceEditorPage } from "./pages/experience-editor/ExperienceEditorPage";
import { ExperiencesPage } from "./pages/experiences/ExperiencesPage";
import { InstallPage } from "./pages/install/InstallPage";
import { LoginPage } from "./pages/login/LoginPage";
import { NotFoundPage } from "./pages/NotFoundPage";
import { ResultsPage } from "./pages/results/ResultsPage";
import { SettingsPage } from "./pages/settings/SettingsPage";
import { VisualEditorPage } from "./pages/visual-editor/VisualEditorPage";
import { paths, routePatterns } from "./paths";

export function App() {
  return (
    <Routes>
      <Route path={paths.login} element={<LoginPage />} />
      <Route element={<RequireSession />}>
        {/* The visual editor takes the whole window: no app header around the shop frame. */}
        <Route path={routePatterns.visualEditor} element={<VisualEditorPage />} />
        <Route element={<AppLayout />}>
          <Route index element={<ExperiencesPage />} />
          <Route path={routePatterns.newExperience} element={<ExperienceEditorPage />} />
          <Route path={routePatterns.experience} element={<ExperienceEditorPage />} />
          <Route path={routePatterns.results} element={<ResultsPage />} />
          <Route path={paths.audiences} element={<AudiencesPage />} />
          <Route path={paths.settings} element={<SettingsPage />} />
          <Route path={paths.install} element={<InstallPage />} />
          <Route path={paths.events} element={<EventsPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
