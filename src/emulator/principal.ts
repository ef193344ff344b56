/** Who made a request: an accepted key, known by its prefix only (the key itself is kept nowhere). */
export interface Principal {
  prefix: string;
}
