/**
 * The page's entry: its stylesheet, then the app once the first frame is painted. index.html already holds
 * the console's frame, status line and keeper card (filled by `serve`); running the ~300 KB app (React, the
 * Overview) takes the main thread 150-350 ms on a 2-core machine, and started at once it could hold that
 * first paint back. A frame, then a task: the shell is on screen before the app starts (start.tsx).
 */
import { loadUntilLoaded } from './load-until-loaded';
import './styles.css';

requestAnimationFrame(() => setTimeout(() => void loadUntilLoaded(() => import('./start'))));
