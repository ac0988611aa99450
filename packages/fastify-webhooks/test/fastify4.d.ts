// Fastify 4 is installed under the alias `fastify4`; its API used by the tests is the one typed for Fastify 5.
declare module 'fastify4' {
  import fastify from 'fastify';
  export default fastify;
}
