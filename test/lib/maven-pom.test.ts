// The POM reader of the Maven registry (lib/packages/registries/maven-pom.ts; Forgejo's ParsePackageMetaData): what it
// keeps of a well-formed POM, and the documents it refuses as Go's XML decoder does.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parsePom, PomError } from '../../lib/packages/registries/maven-pom.ts';

test('a POM: coordinates, name, description, URL, license names and dependencies; entities, CDATA, comments and prefixes read', () => {
  const m = parsePom(`\ufeff<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment before the root -->
<p:project xmlns:p="http://maven.apache.org/POM/4.0.0" xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance'>
  <p:groupId> org.example </p:groupId>
  <artifactId>demo</artifactId>
  <name>A &amp; B &#x263A; &#65;</name>
  <description><![CDATA[<raw> & text]]><!-- hidden --> more</description>
  <url>ftp://example.com/not-http</url>
  <parent><groupId>org.parent</groupId></parent>
  <licenses><license><name>MIT</name></license><license><url>https://x</url></license><license><name>Apache-2.0</name></license></licenses>
  <dependencies>
    <dependency><groupId>g</groupId><artifactId>a</artifactId><version>1</version><scope>test</scope></dependency>
    <dependency><groupId>h</groupId><artifactId>b</artifactId></dependency>
  </dependencies>
  <empty/>
</p:project>
`);
  assert.equal(m, {
    group_id: 'org.example',
    artifact_id: 'demo',
    name: 'A & B \u263a A',
    description: '<raw> & text more',
    project_url: '',
    licenses: ['MIT', 'Apache-2.0'],
    dependencies: [
      { group_id: 'g', artifact_id: 'a', version: '1' },
      { group_id: 'h', artifact_id: 'b', version: '' },
    ],
  });
  assert.is(parsePom('<project><url>https://example.com/x</url></project>').project_url, 'https://example.com/x');
});

const refused: [string, string][] = [
  ['', 'no root'],
  ['<project>', 'unclosed root'],
  ['<project><name>x</project>', 'crossed elements'],
  ['<project></projec>', 'wrong end tag'],
  ['<project/><project/>', 'two roots'],
  ['text<project/>', 'text outside the root'],
  ['<project>&nbsp;</project>', 'unknown entity'],
  ['<project>&amp</project>', 'unterminated entity'],
  ['<project>&#0;</project>', 'NUL character reference'],
  ['<project><!-- open</project>', 'unclosed comment'],
  ['<!DOCTYPE project [<!ENTITY x "y">]><project>&x;</project>', 'document type declaration'],
  ['<project a=b></project>', 'unquoted attribute'],
  ['<1project/>', 'invalid element name'],
  ['<metadata/>', 'root is not <project>'],
];

test('documents that are not well-formed XML, or whose root is not <project>, are refused', () => {
  for (const [doc, why] of refused) {
    assert.throws(
      () => parsePom(doc),
      (e: unknown) => e instanceof PomError,
      why,
    );
  }
});

test.run();
