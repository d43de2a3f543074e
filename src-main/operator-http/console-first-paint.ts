/**
 * The console page's first paint. index.html carries the frame, the status line and the keeper card as
 * the console's first render draws them (src-renderer/index.html), so a person sees them as soon as the
 * HTML and its stylesheet arrive, before ~300 KB of script is read and run (measured: 0.4-0.6 s on the
 * 2-core CI machine). `serve` fills its markers with the first glance: the keeper's address and the
 * cluster as text, and the same as a JSON data block the UI's first render reads, so React draws the same
 * thing over it instead of a "starting" card that then flips back. A JSON block is not executed, so the
 * page's CSP (`script-src 'self'`) still forbids every inline script.
 */
import { clusterLabel, type FirstGlance } from '../../src-shared/contract/cluster';
import type { StatusView } from '../../src-shared/contract/status';

/** The element id of the data block (the renderer reads it: src-renderer/src/first-glance.ts). */
export const FIRST_GLANCE_ELEMENT_ID = 'first-glance';

export const FIRST_PAINT_MARKERS = {
  glance: '<!--first-paint:glance-->',
  cluster: '<!--first-paint:cluster-->',
  keeper: '<!--first-paint:keeper-->',
} as const;

/** The public part of the status (see FirstGlance): nothing the public API does not already show. */
export function firstGlanceOf(status: Pick<StatusView, 'keeper' | 'cluster'>): FirstGlance {
  return {
    keeper: status.keeper ? { address: status.keeper.address, shard: status.keeper.shard } : null,
    cluster: status.cluster ? { name: status.cluster.name, embedded: status.cluster.embedded } : null,
  };
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character]!);

/** index.html with its markers filled; a page without markers (an older build) is returned as it was. */
export function withFirstPaint(indexHtml: string, glance: FirstGlance): string {
  // "<" escaped inside the block, so no value can close the script element early.
  const json = JSON.stringify(glance).replace(/</g, '\\u003c');
  return indexHtml
    .replace(
      FIRST_PAINT_MARKERS.glance,
      `<script type="application/json" id="${FIRST_GLANCE_ELEMENT_ID}">${json}</script>`,
    )
    .replace(
      FIRST_PAINT_MARKERS.cluster,
      `<span class="badge cluster-${glance.cluster?.name ?? 'none'}">${escapeHtml(clusterLabel(glance.cluster))}</span>`,
    )
    .replace(FIRST_PAINT_MARKERS.keeper, glance.keeper ? escapeHtml(glance.keeper.address) : 'starting…');
}
