-- A handle made of words ("amber-falcon-42") that others see when a user has set no display name and no full name:
-- chosen at random once, stored, never derived from the id or the email. The default is volatile, so adding the
-- column gives every existing row its own handle, and every new row gets one without the inserts naming it.
CREATE OR REPLACE FUNCTION kf_word_handle() RETURNS text LANGUAGE sql VOLATILE AS $$
  SELECT (ARRAY['amber','azure','brisk','calm','cedar','clever','coral','crimson','dapper','eager','ember','fabled',
                'gentle','golden','hazel','indigo','ivory','jade','jolly','keen','lively','lucky','lunar','maple',
                'mellow','misty','noble','olive','opal','plucky','quiet','rapid','rosy','rustic','sage','scarlet',
                'silver','snowy','solar','steady','sunny','swift','tidy','velvet','vivid','witty','woven','zesty'])
           [1 + floor(random() * 48)::int]
      || '-' ||
         (ARRAY['badger','beacon','bison','breeze','canyon','comet','condor','coyote','crane','delta','dolphin',
                'falcon','fern','finch','fjord','gecko','glacier','harbor','heron','ibex','jaguar','kestrel','koala',
                'lagoon','lemur','lynx','meadow','meteor','mink','nebula','otter','panda','pebble','pine','quail',
                'raven','reef','river','robin','salmon','sparrow','summit','tiger','tundra','walrus','willow','wren',
                'yak'])[1 + floor(random() * 48)::int]
      || '-' || (10 + floor(random() * 90)::int)::text
$$;

ALTER TABLE users ADD COLUMN IF NOT EXISTS handle text NOT NULL DEFAULT kf_word_handle();
