/** RapiDoc ships no types: importing it registers the <rapi-doc> element. */
declare module 'rapidoc';
