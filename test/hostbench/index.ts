// The host benchmark runs through the host suite's runner (extensionTestsPath contract).
export { run } from '../host/index';
