// The header of the pages outside a room (home, game pages, My games): the title, the
// links to the other pages and the language switch.
import { t } from "../i18n";
import { LangSwitch } from "./lang";

export function PageHead({ title, home = false }: { title: string; home?: boolean }) {
  return (
    <header class="home-head">
      <h1>{title}</h1>
      <nav class="row">
        {!home && (
          <a class="nav-link" href="/">
            {t.startPage}
          </a>
        )}
        <a class="nav-link" href="/my" data-testid="my-games-link">
          {t.myGames}
        </a>
        <LangSwitch />
      </nav>
    </header>
  );
}
