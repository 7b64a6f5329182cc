// The seed of every site's category tree: realistic domains in Spanish, Portuguese and English, one per line, indented
// by two spaces per level. Fields: KEY | español | português | English, then optional `kit:<attribute kit>` (inherited
// by the subtree) and `kw:<extra words for domain discovery>`. categories.ts turns it into a tree per site.
export const CATEGORY_SEEDS = `
ELECTRONICS | Electrónica, Audio y Video | Eletrônicos, Áudio e Vídeo | Electronics, Audio and Video | kit:electronics
  AUDIO | Audio | Áudio | Audio
    HEADPHONES | Audífonos | Fones de Ouvido | Headphones | kw:auriculares earbuds earphones bluetooth
      WIRELESS_HEADPHONES | Audífonos Inalámbricos | Fones Sem Fio | Wireless Headphones | kw:tws inalambricos
      WIRED_HEADPHONES | Audífonos con Cable | Fones com Fio | Wired Headphones
      GAMING_HEADSETS | Audífonos Gamer | Headsets Gamer | Gaming Headsets | kw:gamer
    PORTABLE_SPEAKERS | Bocinas Portátiles | Caixas de Som Portáteis | Portable Speakers | kw:bocina parlante altavoz speaker
    SOUNDBARS | Barras de Sonido | Soundbars | Soundbars
    MICROPHONES | Micrófonos | Microfones | Microphones | kw:mic
    AMPLIFIERS | Amplificadores | Amplificadores | Amplifiers
  VIDEO | Video | Vídeo | Video
    PROJECTORS | Proyectores | Projetores | Projectors | kw:proyector beamer
    STREAMING_DEVICES | Dispositivos de Streaming | Dispositivos de Streaming | Streaming Devices | kw:tv box chromecast
    TV_MOUNTS | Soportes para TV | Suportes para TV | TV Mounts
    PROJECTOR_SCREENS | Pantallas de Proyección | Telas de Projeção | Projector Screens
  TELEVISIONS | Televisores | Televisores | Televisions | kw:tv smart pantalla
  CAMERAS | Cámaras y Accesorios | Câmeras e Acessórios | Cameras and Accessories
    DIGITAL_CAMERAS | Cámaras Digitales | Câmeras Digitais | Digital Cameras
    ACTION_CAMERAS | Cámaras Deportivas | Câmeras Esportivas | Action Cameras | kw:gopro
    SECURITY_CAMERAS | Cámaras de Seguridad | Câmeras de Segurança | Security Cameras | kw:cctv vigilancia wifi ip
    TRIPODS | Tripiés | Tripés | Tripods | kw:tripode selfie stick
    CAMERA_LENSES | Lentes para Cámaras | Lentes para Câmeras | Camera Lenses
    RING_LIGHTS | Aros de Luz | Ring Lights | Ring Lights | kw:aro luz led
  DRONES | Drones y Accesorios | Drones e Acessórios | Drones and Accessories
    DRONES_WITH_CAMERA | Drones con Cámara | Drones com Câmera | Drones with Camera
    DRONE_BATTERIES | Baterías para Drones | Baterias para Drones | Drone Batteries
    DRONE_PROPELLERS | Hélices para Drones | Hélices para Drones | Drone Propellers
  ELECTRONIC_COMPONENTS | Componentes Electrónicos | Componentes Eletrônicos | Electronic Components
    DEVELOPMENT_BOARDS | Placas de Desarrollo | Placas de Desenvolvimento | Development Boards | kw:arduino raspberry
    LED_STRIPS | Tiras LED | Fitas LED | LED Strips | kw:tira led rgb
    POWER_SUPPLIES | Fuentes de Alimentación | Fontes de Alimentação | Power Supplies
CELLPHONES | Celulares y Teléfonos | Celulares e Telefones | Cell Phones and Telephones | kit:accessory
  SMARTPHONES | Celulares y Smartphones | Celulares e Smartphones | Cell Phones and Smartphones | kit:phone | kw:celular telefono iphone samsung xiaomi movil
  PHONE_ACCESSORIES | Accesorios para Celulares | Acessórios para Celulares | Cell Phone Accessories
    CELLPHONE_CASES | Fundas y Estuches | Capas e Capinhas | Cellphone Cases | kw:funda case capa capinha carcasa
      IPHONE_CASES | Fundas para iPhone | Capinhas para iPhone | iPhone Cases | kw:iphone
      SAMSUNG_CASES | Fundas para Samsung | Capinhas para Samsung | Samsung Cases | kw:samsung galaxy
      XIAOMI_CASES | Fundas para Xiaomi | Capinhas para Xiaomi | Xiaomi Cases | kw:xiaomi redmi
    SCREEN_PROTECTORS | Protectores de Pantalla | Películas Protetoras | Screen Protectors | kw:mica vidrio templado pelicula
    PHONE_CHARGERS | Cargadores | Carregadores | Chargers | kw:cargador carregador usb tipo c
    POWER_BANKS | Baterías Externas | Carregadores Portáteis | Power Banks | kw:powerbank bateria externa
    USB_CABLES | Cables USB | Cabos USB | USB Cables | kw:cable cabo lightning
    PHONE_HOLDERS | Soportes para Celular | Suportes para Celular | Phone Holders | kw:soporte auto carro
    SELFIE_STICKS | Bastones para Selfie | Bastões de Selfie | Selfie Sticks
  SMARTWATCHES | Smartwatches y Accesorios | Smartwatches e Acessórios | Smartwatches and Accessories
    SMARTWATCHES_DEVICES | Smartwatches | Smartwatches | Smartwatches | kit:phone | kw:reloj inteligente relogio watch
    SMART_BANDS | Pulseras Inteligentes | Pulseiras Inteligentes | Smart Bands | kw:band fitness
    SMARTWATCH_STRAPS | Correas para Smartwatch | Pulseiras para Smartwatch | Smartwatch Straps | kw:correa extensible
  LANDLINE_PHONES | Teléfonos Fijos | Telefones Fixos | Landline Phones | kit:electronics
COMPUTING | Computación | Informática | Computers | kit:electronics
  LAPTOPS | Laptops y Accesorios | Notebooks e Acessórios | Laptops and Accessories
    NOTEBOOKS | Laptops | Notebooks | Laptops | kw:laptop notebook portatil computadora
    LAPTOP_BAGS | Mochilas y Fundas para Laptop | Mochilas e Cases para Notebook | Laptop Bags | kit:accessory
    LAPTOP_STANDS | Bases para Laptop | Suportes para Notebook | Laptop Stands | kit:accessory
    LAPTOP_CHARGERS | Cargadores para Laptop | Carregadores para Notebook | Laptop Chargers
  PERIPHERALS | Periféricos de PC | Periféricos de PC | PC Peripherals
    KEYBOARDS | Teclados | Teclados | Keyboards | kw:teclado mecanico
    MICE | Mouses | Mouses | Mice | kw:mouse raton gamer
    MOUSE_PADS | Mouse Pads | Mousepads | Mouse Pads | kit:accessory
    WEBCAMS | Webcams | Webcams | Webcams | kw:camara web
    USB_HUBS | Hubs USB | Hubs USB | USB Hubs
  STORAGE | Almacenamiento | Armazenamento | Storage
    USB_FLASH_DRIVES | Memorias USB | Pen Drives | USB Flash Drives | kw:memoria usb pendrive
    MEMORY_CARDS | Tarjetas de Memoria | Cartões de Memória | Memory Cards | kw:micro sd
    SSDS | Discos SSD | SSDs | Solid State Drives | kw:ssd nvme
    EXTERNAL_HARD_DRIVES | Discos Duros Externos | HDs Externos | External Hard Drives
  NETWORKING | Conectividad y Redes | Redes e Wireless | Networking
    ROUTERS | Routers | Roteadores | Routers | kw:wifi router
    WIFI_EXTENDERS | Repetidores WiFi | Repetidores Wi-Fi | WiFi Extenders
    NETWORK_CABLES | Cables de Red | Cabos de Rede | Network Cables | kw:ethernet rj45
  MONITORS | Monitores | Monitores | Monitors | kw:monitor pantalla
  TABLETS | Tablets y Accesorios | Tablets e Acessórios | Tablets and Accessories
    TABLET_DEVICES | Tablets | Tablets | Tablets | kit:phone | kw:ipad tablet
    TABLET_CASES | Fundas para Tablets | Capas para Tablets | Tablet Cases | kit:accessory
    STYLUS_PENS | Lápices Ópticos | Canetas Touch | Stylus Pens | kit:accessory | kw:stylus lapiz
HOME | Hogar, Muebles y Jardín | Casa, Móveis e Decoração | Home, Furniture and Garden | kit:home
  KITCHEN | Cocina | Cozinha | Kitchen
    COOKWARE | Baterías de Cocina | Panelas | Cookware | kw:sarten olla cacerola frigideira
    KITCHEN_KNIVES | Cuchillos de Cocina | Facas de Cozinha | Kitchen Knives
    KITCHEN_UTENSILS | Utensilios de Cocina | Utensílios de Cozinha | Kitchen Utensils | kw:espatula silicona
    FOOD_CONTAINERS | Recipientes para Alimentos | Potes para Alimentos | Food Containers | kw:tupper hermetico
    THERMOSES | Termos | Garrafas Térmicas | Thermoses | kw:termo botella agua
  DECORATION | Decoración | Decoração | Decoration
    WALL_CLOCKS | Relojes de Pared | Relógios de Parede | Wall Clocks
    ARTIFICIAL_PLANTS | Plantas Artificiales | Plantas Artificiais | Artificial Plants
    PICTURE_FRAMES | Portarretratos | Porta-Retratos | Picture Frames
    DECORATIVE_LIGHTS | Luces Decorativas | Luzes Decorativas | Decorative Lights | kw:guirnalda led navidad
    WALL_STICKERS | Vinilos Decorativos | Adesivos de Parede | Wall Stickers
  BEDDING | Ropa de Cama | Cama, Mesa e Banho | Bedding
    BED_SHEETS | Sábanas | Lençóis | Bed Sheets | kw:juego sabanas
    PILLOWS | Almohadas | Travesseiros | Pillows
    BLANKETS | Cobijas y Mantas | Cobertores e Mantas | Blankets | kw:cobertor frazada
    TOWELS | Toallas | Toalhas | Towels
  FURNITURE | Muebles | Móveis | Furniture
    OFFICE_CHAIRS | Sillas de Oficina | Cadeiras de Escritório | Office Chairs | kw:silla gamer ergonomica
    SHELVES | Repisas y Estantes | Prateleiras e Estantes | Shelves
    SHOE_RACKS | Zapateras | Sapateiras | Shoe Racks
    DESKS | Escritorios | Escrivaninhas | Desks | kw:mesa
  ORGANIZATION | Organización | Organização | Home Organization
    STORAGE_BOXES | Cajas Organizadoras | Caixas Organizadoras | Storage Boxes
    HANGERS | Ganchos y Ganchos para Ropa | Cabides | Hangers | kw:gancho cabide
    DRAWER_ORGANIZERS | Organizadores de Cajón | Organizadores de Gaveta | Drawer Organizers
  GARDEN | Jardín y Exterior | Jardim e Exterior | Garden and Outdoors
    FLOWER_POTS | Macetas | Vasos para Plantas | Flower Pots | kw:maceta vaso
    GARDEN_HOSES | Mangueras de Jardín | Mangueiras de Jardim | Garden Hoses
    SOLAR_LIGHTS | Lámparas Solares | Luminárias Solares | Solar Lights
  LIGHTING | Iluminación | Iluminação | Lighting
    LED_BULBS | Focos LED | Lâmpadas LED | LED Bulbs | kw:foco bombilla lampada
    DESK_LAMPS | Lámparas de Escritorio | Luminárias de Mesa | Desk Lamps
    CEILING_LIGHTS | Lámparas de Techo | Luminárias de Teto | Ceiling Lights
  BATHROOM | Baño | Banheiro | Bathroom
    SHOWER_HEADS | Regaderas | Chuveiros | Shower Heads
    BATH_MATS | Tapetes de Baño | Tapetes de Banheiro | Bath Mats
    BATHROOM_ORGANIZERS | Organizadores de Baño | Organizadores de Banheiro | Bathroom Organizers
APPLIANCES | Electrodomésticos | Eletrodomésticos | Home Appliances | kit:appliance
  SMALL_KITCHEN_APPLIANCES | Pequeños Electrodomésticos | Eletroportáteis de Cozinha | Small Kitchen Appliances
    BLENDERS | Licuadoras | Liquidificadores | Blenders
    AIR_FRYERS | Freidoras de Aire | Fritadeiras Elétricas | Air Fryers | kw:freidora airfryer
    COFFEE_MAKERS | Cafeteras | Cafeteiras | Coffee Makers
    ELECTRIC_KETTLES | Hervidores Eléctricos | Chaleiras Elétricas | Electric Kettles | kw:tetera
    SANDWICH_MAKERS | Sandwicheras | Sanduicheiras | Sandwich Makers
  HOME_APPLIANCES | Cuidado del Hogar | Cuidado da Casa | Home Care Appliances
    VACUUM_CLEANERS | Aspiradoras | Aspiradores de Pó | Vacuum Cleaners | kw:aspiradora robot
    IRONS | Planchas | Ferros de Passar | Irons
    FANS | Ventiladores | Ventiladores | Fans | kw:ventilador
    HUMIDIFIERS | Humidificadores | Umidificadores | Humidifiers | kw:difusor aromas
    SPACE_HEATERS | Calefactores | Aquecedores | Space Heaters
  PERSONAL_CARE_APPLIANCES | Cuidado Personal | Cuidados Pessoais | Personal Care Appliances
    HAIR_DRYERS | Secadoras de Pelo | Secadores de Cabelo | Hair Dryers
    HAIR_STRAIGHTENERS | Planchas para Cabello | Chapinhas | Hair Straighteners | kw:alaciadora
    ELECTRIC_SHAVERS | Rasuradoras | Barbeadores Elétricos | Electric Shavers | kw:afeitadora maquina
    ELECTRIC_TOOTHBRUSHES | Cepillos de Dientes Eléctricos | Escovas de Dente Elétricas | Electric Toothbrushes
  REFRIGERATORS | Refrigeradores | Geladeiras | Refrigerators | kw:refrigerador nevera
  WASHING_MACHINES | Lavadoras | Máquinas de Lavar | Washing Machines
FASHION | Ropa, Bolsas y Calzado | Calçados, Roupas e Bolsas | Clothing, Shoes and Bags | kit:fashion
  WOMEN_CLOTHING | Ropa para Mujer | Roupas Femininas | Women's Clothing
    DRESSES | Vestidos | Vestidos | Dresses
    BLOUSES | Blusas | Blusas | Blouses
    LEGGINGS | Leggings | Leggings | Leggings | kw:mallas licras
    WOMEN_JEANS | Jeans para Mujer | Calças Jeans Femininas | Women's Jeans
    SWIMWEAR | Trajes de Baño | Moda Praia | Swimwear | kw:bikini
    LINGERIE | Lencería | Lingerie | Lingerie | kw:brasier
  MEN_CLOTHING | Ropa para Hombre | Roupas Masculinas | Men's Clothing
    T_SHIRTS | Playeras | Camisetas | T-Shirts | kw:playera camiseta remera
    SHIRTS | Camisas | Camisas | Shirts
    MEN_JEANS | Jeans para Hombre | Calças Jeans Masculinas | Men's Jeans
    HOODIES | Sudaderas | Moletons | Hoodies | kw:sudadera buzo
    JACKETS | Chamarras | Jaquetas | Jackets | kw:chamarra chaqueta
    SHORTS | Shorts | Bermudas | Shorts | kw:bermuda
  SHOES | Calzado | Calçados | Footwear | kit:shoes
    SNEAKERS | Tenis | Tênis | Sneakers | kw:tenis zapatillas deportivos
      RUNNING_SHOES | Tenis para Correr | Tênis de Corrida | Running Shoes | kw:running correr
      CASUAL_SNEAKERS | Tenis Casuales | Tênis Casuais | Casual Sneakers
    BOOTS | Botas | Botas | Boots
    SANDALS | Sandalias | Sandálias | Sandals | kw:huaraches chanclas
    SLIPPERS | Pantuflas | Pantufas | Slippers
    FORMAL_SHOES | Zapatos de Vestir | Sapatos Sociais | Formal Shoes | kw:zapato
  BAGS | Bolsas y Mochilas | Bolsas e Mochilas | Bags and Backpacks
    HANDBAGS | Bolsas de Mano | Bolsas Femininas | Handbags | kw:bolso cartera
    BACKPACKS | Mochilas | Mochilas | Backpacks | kw:mochila escolar
    WALLETS | Carteras | Carteiras | Wallets | kw:billetera
    SUITCASES | Maletas | Malas de Viagem | Suitcases | kw:maleta viaje
  FASHION_ACCESSORIES | Accesorios de Moda | Acessórios da Moda | Fashion Accessories
    SUNGLASSES | Lentes de Sol | Óculos de Sol | Sunglasses | kw:gafas anteojos oculos
    CAPS | Gorras | Bonés | Caps | kw:gorra bone
    BELTS | Cinturones | Cintos | Belts
    SCARVES | Bufandas | Cachecóis | Scarves
BEAUTY | Belleza y Cuidado Personal | Beleza e Cuidado Pessoal | Beauty and Personal Care | kit:beauty
  MAKEUP | Maquillaje | Maquiagem | Makeup
    LIPSTICKS | Labiales | Batons | Lipsticks | kw:labial batom
    FOUNDATIONS | Bases de Maquillaje | Bases | Foundations
    EYESHADOWS | Sombras | Sombras | Eyeshadows
    MAKEUP_BRUSHES | Brochas de Maquillaje | Pincéis de Maquiagem | Makeup Brushes | kw:brocha pincel
    FALSE_EYELASHES | Pestañas Postizas | Cílios Postiços | False Eyelashes
  SKIN_CARE | Cuidado de la Piel | Cuidados com a Pele | Skin Care
    FACE_CREAMS | Cremas Faciales | Cremes Faciais | Face Creams | kw:crema hidratante
    FACE_SERUMS | Sérums | Séruns | Face Serums
    SUNSCREENS | Protectores Solares | Protetores Solares | Sunscreens | kw:bloqueador
    FACE_MASKS | Mascarillas | Máscaras Faciais | Face Masks
  HAIR_CARE | Cuidado del Cabello | Cuidados com o Cabelo | Hair Care
    SHAMPOOS | Shampoos | Xampus | Shampoos
    HAIR_ACCESSORIES | Accesorios para el Cabello | Acessórios para Cabelo | Hair Accessories | kw:pinza diadema
    WIGS | Pelucas | Perucas | Wigs
  NAILS | Uñas | Unhas | Nails
    NAIL_POLISH | Esmaltes | Esmaltes | Nail Polish | kw:esmalte gel
    NAIL_LAMPS | Lámparas para Uñas | Cabines para Unhas | Nail Lamps | kw:uv led
    NAIL_TIPS | Uñas Postizas | Unhas Postiças | Nail Tips
  FRAGRANCES | Perfumes | Perfumes | Fragrances | kw:perfume fragancia colonia
TOYS | Juegos y Juguetes | Brinquedos e Hobbies | Toys and Games | kit:toys
  BUILDING_TOYS | Juegos de Construcción | Blocos de Montar | Building Toys | kw:bloques lego
  DOLLS | Muñecas y Accesorios | Bonecas e Acessórios | Dolls and Accessories | kw:muneca boneca
  RC_TOYS | Vehículos a Control Remoto | Veículos de Controle Remoto | Remote Control Vehicles | kw:carro rc control remoto
    RC_CARS | Carros a Control Remoto | Carrinhos de Controle Remoto | RC Cars
    RC_HELICOPTERS | Helicópteros a Control Remoto | Helicópteros de Controle Remoto | RC Helicopters
  BOARD_GAMES | Juegos de Mesa | Jogos de Tabuleiro | Board Games | kw:juego mesa cartas
  PUZZLES | Rompecabezas | Quebra-Cabeças | Puzzles | kw:puzzle
  PLUSH_TOYS | Peluches | Pelúcias | Plush Toys | kw:peluche
  EDUCATIONAL_TOYS | Juguetes Educativos | Brinquedos Educativos | Educational Toys | kw:didactico montessori
  OUTDOOR_TOYS | Juegos al Aire Libre | Brinquedos para Área Externa | Outdoor Toys
    BUBBLE_TOYS | Burbujas | Bolhas de Sabão | Bubble Toys
    WATER_GUNS | Pistolas de Agua | Pistolas de Água | Water Guns
    KITES | Papalotes | Pipas | Kites
SPORTS | Deportes y Fitness | Esportes e Fitness | Sports and Fitness | kit:sports
  FITNESS | Fitness y Musculación | Fitness e Musculação | Fitness and Training
    DUMBBELLS | Mancuernas | Halteres | Dumbbells | kw:pesas
    RESISTANCE_BANDS | Bandas de Resistencia | Faixas Elásticas | Resistance Bands | kw:ligas
    YOGA_MATS | Tapetes de Yoga | Tapetes de Yoga | Yoga Mats | kw:mat
    JUMP_ROPES | Cuerdas para Saltar | Cordas de Pular | Jump Ropes
  CYCLING | Ciclismo | Ciclismo | Cycling
    BICYCLES | Bicicletas | Bicicletas | Bicycles | kw:bici
    BIKE_LIGHTS | Luces para Bicicleta | Luzes para Bicicleta | Bike Lights
    BIKE_HELMETS | Cascos de Ciclismo | Capacetes de Ciclismo | Bike Helmets | kw:casco capacete
  CAMPING | Camping, Caza y Pesca | Camping, Caça e Pesca | Camping, Hunting and Fishing
    TENTS | Casas de Campaña | Barracas | Tents | kw:tienda campana carpa
    SLEEPING_BAGS | Bolsas de Dormir | Sacos de Dormir | Sleeping Bags
    FISHING_REELS | Carretes de Pesca | Molinetes de Pesca | Fishing Reels
    FLASHLIGHTS | Linternas | Lanternas | Flashlights | kw:linterna lanterna
  TEAM_SPORTS | Deportes de Equipo | Esportes Coletivos | Team Sports
    SOCCER_BALLS | Balones de Futbol | Bolas de Futebol | Soccer Balls | kw:balon pelota bola futbol
    BASKETBALLS | Balones de Basquetbol | Bolas de Basquete | Basketballs
  SWIMMING | Natación | Natação | Swimming
    SWIM_GOGGLES | Goggles de Natación | Óculos de Natação | Swim Goggles | kw:goggles gafas
    SWIM_CAPS | Gorras de Natación | Toucas de Natação | Swim Caps
TOOLS | Herramientas | Ferramentas | Tools | kit:tools
  POWER_TOOLS | Herramientas Eléctricas | Ferramentas Elétricas | Power Tools
    DRILLS | Taladros | Furadeiras | Drills | kw:taladro rotomartillo
    SCREWDRIVERS_ELECTRIC | Atornilladores | Parafusadeiras | Electric Screwdrivers | kw:atornillador
    ANGLE_GRINDERS | Esmeriladoras | Esmerilhadeiras | Angle Grinders | kw:pulidora
    HEAT_GUNS | Pistolas de Calor | Sopradores Térmicos | Heat Guns
  HAND_TOOLS | Herramientas Manuales | Ferramentas Manuais | Hand Tools
    SCREWDRIVER_SETS | Juegos de Desarmadores | Jogos de Chaves de Fenda | Screwdriver Sets | kw:desarmador destornillador
    WRENCHES | Llaves | Chaves | Wrenches | kw:llave
    PLIERS | Pinzas | Alicates | Pliers
    TOOL_BOXES | Cajas de Herramientas | Caixas de Ferramentas | Tool Boxes
  MEASURING_TOOLS | Medición | Medição | Measuring Tools
    TAPE_MEASURES | Flexómetros | Trenas | Tape Measures | kw:cinta metrica
    LASER_LEVELS | Niveles Láser | Níveis a Laser | Laser Levels
    MULTIMETERS | Multímetros | Multímetros | Multimeters | kw:multimetro tester
  SOLDERING | Soldadura | Solda | Soldering
    SOLDERING_IRONS | Cautines | Ferros de Solda | Soldering Irons | kw:cautin soldador
    SOLDERING_STATIONS | Estaciones de Soldadura | Estações de Solda | Soldering Stations
VEHICLE_ACCESSORIES | Accesorios para Vehículos | Acessórios para Veículos | Vehicle Accessories | kit:auto
  CAR_ELECTRONICS | Electrónica para Autos | Som e Eletrônicos Automotivos | Car Electronics
    DASH_CAMS | Cámaras para Auto | Câmeras Veiculares | Dash Cams | kw:dashcam
    CAR_STEREOS | Estéreos para Auto | Som Automotivo | Car Stereos | kw:autoestereo radio
    CAR_CHARGERS | Cargadores para Auto | Carregadores Veiculares | Car Chargers
    TIRE_INFLATORS | Compresores de Aire para Auto | Compressores de Ar Portáteis | Tire Inflators
  CAR_INTERIOR | Accesorios de Interior | Acessórios Internos | Interior Accessories
    SEAT_COVERS | Cubreasientos | Capas de Banco | Seat Covers | kw:funda asiento
    CAR_FLOOR_MATS | Tapetes para Auto | Tapetes Automotivos | Car Floor Mats
    STEERING_WHEEL_COVERS | Cubrevolantes | Capas de Volante | Steering Wheel Covers
  CAR_LIGHTING | Iluminación para Vehículos | Iluminação Automotiva | Vehicle Lighting
    HEADLIGHT_BULBS | Focos para Faros | Lâmpadas para Faróis | Headlight Bulbs | kw:led h4 h7
    LIGHT_BARS | Barras de Luz | Barras de LED | Light Bars
  MOTORCYCLE_ACCESSORIES | Accesorios para Motos | Acessórios para Motos | Motorcycle Accessories
    MOTORCYCLE_HELMETS | Cascos para Moto | Capacetes para Moto | Motorcycle Helmets
    MOTORCYCLE_GLOVES | Guantes para Moto | Luvas para Moto | Motorcycle Gloves
    MOTORCYCLE_COVERS | Cubiertas para Moto | Capas para Moto | Motorcycle Covers
PETS | Animales y Mascotas | Animais | Pets and Animals | kit:pets
  DOGS | Perros | Cachorros | Dogs
    DOG_BEDS | Camas para Perros | Camas para Cachorro | Dog Beds
    DOG_COLLARS | Collares para Perros | Coleiras para Cachorro | Dog Collars | kw:collar correa pechera
    DOG_TOYS | Juguetes para Perros | Brinquedos para Cachorro | Dog Toys
    DOG_CLOTHES | Ropa para Perros | Roupas para Cachorro | Dog Clothes
  CATS | Gatos | Gatos | Cats
    CAT_SCRATCHERS | Rascadores | Arranhadores | Cat Scratchers | kw:rascador arranhador
    CAT_LITTER_BOXES | Areneros | Caixas de Areia | Cat Litter Boxes
    CAT_TOYS | Juguetes para Gatos | Brinquedos para Gato | Cat Toys
  AQUARIUMS | Acuarios | Aquários | Aquariums
    AQUARIUM_FILTERS | Filtros para Acuarios | Filtros para Aquário | Aquarium Filters
    AQUARIUM_LIGHTS | Iluminación para Acuarios | Iluminação para Aquário | Aquarium Lights
  PET_FEEDERS | Comederos y Bebederos | Comedouros e Bebedouros | Pet Feeders | kw:comedero bebedero automatico
BABY | Bebés | Bebês | Baby | kit:baby
  BABY_FEEDING | Alimentación del Bebé | Alimentação do Bebê | Baby Feeding
    BABY_BOTTLES | Biberones | Mamadeiras | Baby Bottles | kw:mamila biberon mamadeira
    PACIFIERS | Chupones | Chupetas | Pacifiers | kw:chupon chupete
    HIGH_CHAIRS | Sillas para Comer | Cadeiras de Alimentação | High Chairs
  BABY_STROLLERS | Carriolas | Carrinhos de Bebê | Baby Strollers | kw:carriola coche
  BABY_CLOTHING | Ropa para Bebés | Roupas para Bebê | Baby Clothing | kit:fashion
    BABY_BODYSUITS | Pañaleros | Bodies | Baby Bodysuits | kw:body panalero
    BABY_PAJAMAS | Pijamas para Bebé | Pijamas para Bebê | Baby Pajamas
  BABY_SAFETY | Seguridad para Bebés | Segurança para Bebês | Baby Safety
    BABY_MONITORS | Monitores para Bebé | Babás Eletrônicas | Baby Monitors | kit:electronics | kw:baby monitor
    SAFETY_GATES | Rejas de Seguridad | Portões de Segurança | Safety Gates
  BABY_BATH | Baño del Bebé | Banho do Bebê | Baby Bath
    BABY_BATHTUBS | Tinas para Bebé | Banheiras para Bebê | Baby Bathtubs
    BABY_THERMOMETERS | Termómetros para Bebé | Termômetros para Bebê | Baby Thermometers
OFFICE | Arte, Papelería y Mercería | Arte, Papelaria e Armarinho | Art, Stationery and Crafts | kit:office
  STATIONERY | Papelería | Papelaria | Stationery
    NOTEBOOKS_PAPER | Cuadernos | Cadernos | Paper Notebooks | kw:cuaderno libreta
    PENS | Bolígrafos | Canetas | Pens | kw:pluma boligrafo
    MARKERS | Marcadores | Marcadores | Markers | kw:plumones
    STICKY_NOTES | Notas Adhesivas | Blocos Adesivos | Sticky Notes | kw:post it
  ART_SUPPLIES | Artículos de Arte | Materiais de Arte | Art Supplies
    PAINT_BRUSHES | Pinceles | Pincéis | Paint Brushes
    ACRYLIC_PAINTS | Pinturas Acrílicas | Tintas Acrílicas | Acrylic Paints
    SKETCHBOOKS | Blocks de Dibujo | Cadernos de Desenho | Sketchbooks
  SEWING | Mercería | Armarinho | Sewing
    SEWING_MACHINES | Máquinas de Coser | Máquinas de Costura | Sewing Machines | kit:appliance
    SEWING_THREADS | Hilos | Linhas | Sewing Threads
  LABEL_PRINTERS | Impresoras de Etiquetas | Impressoras de Etiquetas | Label Printers | kit:electronics | kw:termica etiquetadora
JEWELRY | Joyas y Relojes | Joias e Relógios | Jewelry and Watches | kit:jewelry
  WATCHES | Relojes | Relógios | Watches | kw:reloj relogio
    WRIST_WATCHES | Relojes de Pulsera | Relógios de Pulso | Wrist Watches
    WATCH_STRAPS | Extensibles para Reloj | Pulseiras para Relógio | Watch Straps
  JEWELS | Joyas y Bisutería | Joias e Bijuterias | Jewels and Costume Jewelry
    NECKLACES | Collares | Colares | Necklaces | kw:collar cadena
    EARRINGS | Aretes | Brincos | Earrings | kw:arete pendientes
    BRACELETS | Pulseras | Pulseiras | Bracelets | kw:pulsera
    RINGS | Anillos | Anéis | Rings | kw:anillo anel
  JEWELRY_BOXES | Joyeros | Porta-Joias | Jewelry Boxes
`;
