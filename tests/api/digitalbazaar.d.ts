// Digital Bazaar's libraries (and jsonld) ship JavaScript without types; the tests use them untyped.
declare module "@digitalbazaar/vc";
declare module "@digitalbazaar/data-integrity";
declare module "@digitalbazaar/eddsa-jcs-2022-cryptosuite";
declare module "@digitalbazaar/vc-bitstring-status-list";
declare module "@digitalbazaar/credentials-context";
declare module "jsonld";
