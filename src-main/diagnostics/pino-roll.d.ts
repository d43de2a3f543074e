/** pino-roll 4 ships no types: the options this project uses (README of pino-roll). */
declare module 'pino-roll' {
  import type SonicBoom from 'sonic-boom';
  interface PinoRollOptions {
    file: string;
    size?: string | number;
    extension?: string;
    limit?: { count?: number; removeOtherLogFiles?: boolean };
    mkdir?: boolean;
    mode?: number;
    sync?: boolean;
  }
  export default function pinoRoll(options: PinoRollOptions): Promise<SonicBoom>;
}
