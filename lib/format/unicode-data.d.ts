/** The Unicode property value aliases ECMAScript regular expressions accept (mathiasbynens). */
declare module "unicode-property-value-aliases-ecmascript" {
  const aliases: Map<string, Map<string, string>>;
  export default aliases;
}
