import { createServer } from 'node:http';
const server = createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(202, { location: 'http://127.0.0.1/sms/v4/mt/AAAAA-BBBBB-CCCCC-00001', 'x-request-id': 'r', 'content-length': '0' }); res.end(); }); });
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('disconnect', () => server.close(() => process.exit(0)));
