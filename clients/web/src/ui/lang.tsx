// The language switch (English, 繁體中文, 简体中文), on every screen: each language named in
// its own words (the one text a page in another language shows untranslated).
import { CATALOGUES, LANGS, lang, setLang, t, type Lang } from "../i18n";

export function LangSwitch() {
  return (
    <select
      class="small lang-switch"
      data-testid="lang"
      aria-label={t.language}
      value={lang()}
      onChange={(e) => setLang(e.currentTarget.value as Lang)}
    >
      {LANGS.map((l) => (
        <option key={l} value={l} lang={l}>
          {CATALOGUES[l].langName}
        </option>
      ))}
    </select>
  );
}
