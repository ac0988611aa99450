// Express 4 is installed under the alias `express4`; its API used by the tests is the one typed for Express 5.
declare module 'express4' {
  import express from 'express';
  export default express;
}
