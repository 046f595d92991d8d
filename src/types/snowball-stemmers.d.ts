/** The Snowball stemmers compiled to JavaScript (npm `snowball-stemmers`, ISC); the package ships no types. */
declare module 'snowball-stemmers' {
  export interface Stemmer {
    /** The stem of one lower-case word. */
    stem(word: string): string;
  }
  /** The algorithms' names: 'english', 'german', 'french'… */
  export function algorithms(): string[];
  export function newStemmer(algorithm: string): Stemmer;
}
