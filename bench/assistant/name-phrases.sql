-- The assistant's product-name phrases (plain-words/vocabulary.ts productNamePhrases) on 20,000
-- products with names of 4-5 words: the pairs-only query before 2026-12-05 and the pairs-and-triples
-- one after. Run: flock /tmp/heavy.lock psql -q postgres://postgres@127.0.0.1:5432/postgres -f bench/assistant/name-phrases.sql
-- (creates and drops the database name_phrases_bench).
drop database if exists name_phrases_bench;
create database name_phrases_bench;
\c name_phrases_bench
create schema data;
create table data.products (id serial primary key, name text not null);
insert into data.products (name)
select initcap((array['snow','ice','pressure','stainless','garden','kitchen','copper','brass','oak','pine','steel','glass'])[1 + (i*7) % 12]) || ' ' ||
       initcap((array['treated','heavy','light','classic','premium','outdoor','indoor','large','small','round'])[1 + (i*3) % 10]) || ' ' ||
       initcap((array['shovel','lumber','screw','hinge','post','brush','melt','mug','pan','hook','rake','hose'])[1 + (i*11) % 12]) || ' ' || (i % 97)::text || 'pk ' || 'Model' || (i % 1000)::text
from generate_series(1, 20000) i;
analyze data.products;
\timing on
-- before: pairs only
select count(*) from (select min(pair.word || ' ' || pair.next) as phrase
      from data.products p, lateral (
        select t.word, lead(t.word) over (order by t.at) as next from regexp_split_to_table(p.name, '\s+') with ordinality as t(word, at)
      ) pair
      where pair.next is not null and pair.word ~ '^[[:alpha:]]{3,}$' and pair.next ~ '^[[:alpha:]]{3,}$'
      group by lower(pair.word || ' ' || pair.next) order by 1 limit 5000) x;
select count(*) from (select min(pair.word || ' ' || pair.next) as phrase
      from data.products p, lateral (
        select t.word, lead(t.word) over (order by t.at) as next from regexp_split_to_table(p.name, '\s+') with ordinality as t(word, at)
      ) pair
      where pair.next is not null and pair.word ~ '^[[:alpha:]]{3,}$' and pair.next ~ '^[[:alpha:]]{3,}$'
      group by lower(pair.word || ' ' || pair.next) order by 1 limit 5000) x;
-- after: pairs and triples (the query as shipped), twice
select count(*) from (
      with runs as (
        select run.first, run.second, run.third from data.products p, lateral (
          select t.word as first, lead(t.word) over run as second, lead(t.word, 2) over run as third
          from regexp_split_to_table(p.name, '\s+') with ordinality as t(word, at) window run as (order by t.at)
        ) run
        where run.first ~ '^[[:alpha:]]{3,}$' and run.second ~ '^[[:alpha:]]{3,}$'
      )
      (select min(first || ' ' || second) as phrase from runs group by lower(first || ' ' || second) order by 1 limit 5000)
      union all
      (select min(first || ' ' || second || ' ' || third) as phrase from runs where third ~ '^[[:alpha:]]{3,}$' group by lower(first || ' ' || second || ' ' || third) order by 1 limit 5000)) x;
select count(*) from (
      with runs as (
        select run.first, run.second, run.third from data.products p, lateral (
          select t.word as first, lead(t.word) over run as second, lead(t.word, 2) over run as third
          from regexp_split_to_table(p.name, '\s+') with ordinality as t(word, at) window run as (order by t.at)
        ) run
        where run.first ~ '^[[:alpha:]]{3,}$' and run.second ~ '^[[:alpha:]]{3,}$'
      )
      (select min(first || ' ' || second) as phrase from runs group by lower(first || ' ' || second) order by 1 limit 5000)
      union all
      (select min(first || ' ' || second || ' ' || third) as phrase from runs where third ~ '^[[:alpha:]]{3,}$' group by lower(first || ' ' || second || ' ' || third) order by 1 limit 5000)) x;
\c postgres
drop database name_phrases_bench;
