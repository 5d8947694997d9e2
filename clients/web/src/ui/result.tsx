// The win dialog: the winner's hand with the winning tile apart and labelled, every pattern
// with its count and value, the total in the rule set's unit, then who pays whom how much and
// why — each payment with the settlement's own arithmetic (`parts`, ui/payments.ts) — the
// hand's instant payments (hk-tw16), and each seat's net. A draw says so.
import type { Payment, Winner } from "../protocol/types";
import type { HandResult, RoomModel } from "../state/reducer";
import { patternGloss, patternName, t, unit } from "../i18n";
import { tileName } from "../tiles/art";
import { signed } from "./format";
import { LangSwitch } from "./lang";
import { arithmetic, reasonWords } from "./payments";
import { seatWords } from "./seat";
import { MeldView, Tile } from "./tile";

function winTitle(how: string | undefined, name: string, from: string): string {
  if (how === "self_drawn") return t.winSelfDrawn(name);
  if (how === "robbing_kong") return t.winRobbing(name);
  if (how === "flowers") return t.winFlowers(name);
  return t.winDiscard(name, from);
}

/** One transfer: "Ann → Bob 31 · self-draw · 8 base + 23 fan". */
/** A titled table of payments, one line each with its arithmetic. */
function PayLines(props: { title: string; testId: string; pays: Payment[]; names: string[]; ruleset: string }) {
  return (
    <>
      <h3>{props.title}</h3>
      <table class="pay-lines" data-testid={props.testId}>
        <tbody>
          {props.pays.map((p, i) => (
            <PayLine key={i} p={p} names={props.names} ruleset={props.ruleset} />
          ))}
        </tbody>
      </table>
    </>
  );
}

function PayLine({ p, names, ruleset }: { p: Payment; names: string[]; ruleset: string }) {
  const how = p.parts && p.parts.length ? arithmetic(ruleset, p.parts, p.share ?? 1) : null;
  return (
    <tr data-testid="pay-line" data-payer={p.payer} data-payee={p.payee} data-amount={p.amount}>
      <td>{t.pays(names[p.payer] ?? "", names[p.payee] ?? "")}</td>
      <td class="why">
        {reasonWords(p.reason)}
        {how && <div class="calc" data-testid="pay-calc">{`${how} = ${p.amount}${(p.share ?? 1) > 1 ? ` (${t.roundedUp})` : ""}`}</div>}
      </td>
      <td class="num">{p.amount}</td>
    </tr>
  );
}

function WinnerView({ w, names, ruleset, how, discarder }: { w: Winner; names: string[]; ruleset: string; how?: string; discarder: number | null }) {
  return (
    <div class="winner" data-testid="winner">
      <h2 data-testid="result-title">{winTitle(how, names[w.seat] ?? "", names[discarder ?? 0] ?? "")}</h2>
      <div class="win-hand">
        {w.hand.concealed.map((c, i) => (
          <Tile key={i} code={c} size="meld" />
        ))}
        {w.hand.melds.map((m, i) => (
          <MeldView key={i} meld={m} />
        ))}
        <figure class="win-tile" data-testid="win-tile" aria-label={t.winningTileLabel(tileName(w.hand.win_tile))}>
          <Tile code={w.hand.win_tile} size="meld" />
          <figcaption>{t.winningTile}</figcaption>
        </figure>
        {w.hand.flowers.map((f, i) => (
          <Tile key={`f${i}`} code={f} size="small" />
        ))}
      </div>
      <table class="patterns" data-testid="patterns">
        <tbody>
          {w.score.items.map((p, i) => (
            <tr key={i} data-testid="pattern">
              <td>
                <div class="zh">{patternName(ruleset, p.id, p.name)}</div>
                {patternGloss(ruleset, p.id, p.en) !== null && <div class="en">{patternGloss(ruleset, p.id, p.en)}</div>}
              </td>
              <td class="num">
                {p.count > 1 ? `${p.points} × ${p.count} = ${p.points * p.count}` : p.points}
                {p.house && (
                  <span class="house" title={t.houseTitle}>
                    {" "}
                    {t.house}
                  </span>
                )}
              </td>
            </tr>
          ))}
          <tr class="total">
            <td>{t.total}</td>
            <td class="num" data-testid="total">
              {w.score.total} {unit(ruleset)}
            </td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

/** A hand's result: the winners' hands and breakdowns, who pays whom (with the
 * arithmetic), the instant payments and each seat's net; a draw says so. The win dialog, the
 * game page and the replay viewer show it alike. */
export function ResultBody({ r, names, ruleset, headingId }: { r: HandResult; names: string[]; ruleset: string; headingId?: string }) {
  // the winners' own payments carry their arithmetic; every other payment of the hand is an
  // instant payment (hk-tw16), listed by its kind
  const winPays = r.winners.flatMap((w) => w.payments);
  const counted = new Map<string, number>();
  for (const p of winPays) {
    const k = `${p.payer}/${p.payee}/${p.amount}/${p.reason}`;
    counted.set(k, (counted.get(k) ?? 0) + 1);
  }
  const instants = r.payments.filter((p) => {
    const k = `${p.payer}/${p.payee}/${p.amount}/${p.reason}`;
    const n = counted.get(k) ?? 0;
    if (n > 0) {
      counted.set(k, n - 1);
      return false;
    }
    return true;
  });
  return (
    <>
      {r.kind === "draw" ? (
        <h2 id={headingId} data-testid="result-title">
          {r.reason === "wall" ? t.drawWall : t.draw(r.reason ?? "")}
        </h2>
      ) : (
        <>
          <span id={headingId} class="sr-only">
            {t.paymentsTitle}
          </span>
          {r.winners.map((w) => (
            <WinnerView key={w.seat} w={w} names={names} ruleset={ruleset} how={r.how} discarder={r.discarder ?? null} />
          ))}
        </>
      )}
      {(winPays.length > 0 || instants.length > 0) && (
        <PayLines title={t.paymentsTitle} testId="pay-lines" pays={winPays} names={names} ruleset={ruleset} />
      )}
      {instants.length > 0 && (
        <PayLines title={t.instantTitle} testId="instant-lines" pays={instants} names={names} ruleset={ruleset} />
      )}
      <h3>{t.netTitle}</h3>
      <table class="payments" data-testid="payments">
        <tbody>
          {r.net.map((v, i) => (
            <tr key={i}>
              <td>{names[i]}</td>
              <td class={`num ${v > 0 ? "plus" : v < 0 ? "minus" : ""}`}>{signed(v)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function ResultDialog({ room, onClose }: { room: RoomModel; onClose: () => void }) {
  const r = room.result!;
  const names = [0, 1, 2, 3].map((i) => seatWords(room, i));
  const ruleset = room.game?.ruleset ?? room.lobby.ruleset;
  const pause = (room.lobby.options.hand_pause_ms as number | undefined) ?? 3000;
  return (
    <div class="overlay" role="dialog" aria-modal="true" aria-labelledby="result-heading" data-testid="result">
      <div class="dialog">
        <ResultBody r={r} names={names} ruleset={ruleset} headingId="result-heading" />
        <p class="muted">{room.game?.phase === "game_over" ? t.lastHand : t.nextHand(Math.round(pause / 1000))}</p>
        <div class="row">
          <button type="button" class="primary" data-testid="result-close" onClick={onClose}>
            {room.game?.phase === "game_over" ? t.standings : t.backToTable}
          </button>
          <span class="grow" />
          <LangSwitch />
        </div>
      </div>
    </div>
  );
}
