import { describe, expect, it } from 'vitest';
import { detectFormat, detectResource, xmlRootName } from './detect-resource.js';

describe('detectFormat', () => {
  it('goes by the extension, else by the first character', () => {
    expect(detectFormat('a/b.JSON', '<x/>')).toBe('json');
    expect(detectFormat('b.xml', '{}')).toBe('xml');
    expect(detectFormat('-', '\uFEFF  <x/>')).toBe('xml');
    expect(detectFormat('body', ' {"a":1}')).toBe('json');
  });
});

describe('detectResource', () => {
  it('reads the JSON root member, skipping members that name no resource', () => {
    expect(detectResource('{"__proto__":{},"mobileTerminate":{}}', 'json')).toBe('mt-request');
    expect(detectResource('{"endUser":{"phoneNumber":1}}', 'json')).toBe('invoke-service-request');
    expect(detectResource('{"variables":{},"endUser":1}', 'json')).toBe('invoke-service-request');
    expect(detectResource('{"foo":1}', 'json')).toBeUndefined();
    expect(detectResource('[1]', 'json')).toBeUndefined();
  });

  it('tells an Invoke Service error body by an integer code of its table', () => {
    expect(detectResource('{"error":{"code":12002,"description":"x"}}', 'json')).toBe('invoke-error');
    expect(detectResource('{"error":{"code":1010,"description":"x"}}', 'json')).toBe('invoke-error');
    expect(detectResource('{"error":{"code":420,"description":"x"}}', 'json')).toBe('error-record');
    expect(detectResource('{"error":{"code":"12002","description":"x"}}', 'json')).toBe('error-record');
  });

  it('recognises malformed JSON by the earliest known member', () => {
    expect(detectResource('{"mtStatus": {"ticketId": ', 'json')).toBe('mt-status');
    expect(detectResource('{"a": {"mobileTerminate": 1}, "mobileTerminate": {', 'json')).toBe('mt-request');
    expect(detectResource('', 'json')).toBeUndefined();
  });

  it('reads the XML root element after the declaration, comments and a DOCTYPE, prefix removed', () => {
    expect(xmlRootName('<?xml version="1.0"?><!-- c --><!DOCTYPE x [<!ENTITY a "b">]><mt:mtStatus xmlns:mt="u"/>')).toBe('mtStatus');
    expect(detectResource('<deliveryReceipt type="final"/>', 'xml')).toBe('delivery-receipt');
    expect(detectResource('<endUser/>', 'xml')).toBeUndefined();
    expect(detectResource('not xml', 'xml')).toBeUndefined();
  });
});
