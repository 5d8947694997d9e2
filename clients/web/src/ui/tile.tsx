import type { Meld, Tile as TileCode } from "../protocol/types";
import { t } from "../i18n";
import { tileName, tileUrl } from "../tiles/art";

interface Props {
  code: TileCode | "back";
  size?: "hand" | "river" | "meld" | "small";
  selected?: boolean;
  dim?: boolean;
  mark?: boolean;
  onClick?: () => void;
  testid?: string;
}

export function Tile({ code, size = "river", selected, dim, mark, onClick, testid }: Props) {
  const cls = ["tile", `tile-${size}`, selected ? "sel" : "", dim ? "dim" : "", mark ? "mark" : ""].join(" ");
  const img = <img src={tileUrl(code)} alt={code === "back" ? t.tiles.back : tileName(code)} draggable={false} />;
  if (onClick) {
    return (
      <button type="button" class={cls} onClick={onClick} data-tile={code} data-testid={testid} aria-pressed={selected ? "true" : "false"}>
        {img}
      </button>
    );
  }
  return (
    <span class={cls} data-tile={code} data-testid={testid}>
      {img}
    </span>
  );
}

/** A meld as it lies on the table: a concealed kong shows two faces and two backs (four
 * backs when another seat's tiles are hidden); the claimed tile is marked. */
export function MeldView({ meld, size = "meld" }: { meld: Meld; size?: Props["size"] }) {
  const tiles = meld.tiles;
  if (!tiles) {
    return (
      <span class="meld" data-kind="kong-hidden">
        {[0, 1, 2, 3].map((i) => <Tile key={i} code="back" size={size} />)}
      </span>
    );
  }
  let marked = false;
  return (
    <span class="meld" data-kind={meld.kind}>
      {tiles.map((t, i) => {
        const face = meld.concealed && (i === 0 || i === 3) ? "back" : t;
        const mark = !marked && meld.claimed === t && !meld.concealed;
        if (mark) marked = true;
        return <Tile key={i} code={face} size={size} mark={mark} />;
      })}
    </span>
  );
}
